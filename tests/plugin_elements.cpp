// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "plugin_elements.h"

#include <algorithm>
#include <iterator>

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace cftest {

void check_element_data(const std::vector<std::string> &names, const std::string &where) {
  const auto listed = [](const std::string &name) {
    return std::find(std::begin(kPluginElements), std::end(kPluginElements), name) !=
           std::end(kPluginElements);
  };
  for (const char *element : kPluginElements)
    fail_unless(std::find(names.begin(), names.end(), element) != names.end(),
                "%s: nothing for %s, an element of tests/plugin_elements.txt: give it its "
                "entry there",
                where.c_str(), element);
  for (const std::string &name : names)
    fail_unless(listed(name), "%s: an entry for %s, which tests/plugin_elements.txt does not list",
                where.c_str(), name.c_str());
}

bool works_in_place(const std::string &element) {
  return element == "cudahist" || element == "cudaredact";
}

bool edits_frames(const std::string &element) { return element == "cudaredact"; }

}  // namespace cftest
