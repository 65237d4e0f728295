// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The plugin's elements for C++ tests. The list lives in tests/plugin_elements.txt
// (one name a line); tests/meson.build reads it and gives the names here as
// CF_PLUGIN_ELEMENTS (string literals, comma-separated), so that every test, the
// Python scripts (tests/plugin_elements.py) and the per-element suites in
// tests/meson.build share that one list.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#ifndef CF_PLUGIN_ELEMENTS
#error "CF_PLUGIN_ELEMENTS: the names of tests/plugin_elements.txt, given by tests/meson.build"
#endif

namespace cftest {

// The factory names, in the list's order.
inline constexpr const char *kPluginElements[] = {CF_PLUGIN_ELEMENTS};

// Whether the element works in place: its frames leave in the memory they came in
// (an analysis, or an edit of part of the frame), never converted to another.
bool works_in_place(const std::string &element);
// Whether it writes into the frames it is given: GStreamer gives it its own copy of a
// buffer that someone else holds too.
bool edits_frames(const std::string &element);

// Fails the running test where `names` (the elements a test has data of, e.g. its
// properties for each) lack an element of the list, naming it, or name one the list
// does not hold; `where` says whose data it is ("kProperties in test_x.cpp").
// Repeated names count once.
void check_element_data(const std::vector<std::string> &names, const std::string &where);

// Each element of the list, in its order, with its entry of `data` (a test's own data
// of each element, by name); fails as check_element_data does.
template <typename Data>
std::vector<std::pair<std::string, Data>> each_element(const std::map<std::string, Data> &data,
                                                       const std::string &where) {
  std::vector<std::string> names;
  for (const auto &entry : data)
    names.push_back(entry.first);
  check_element_data(names, where);
  std::vector<std::pair<std::string, Data>> elements;
  for (const char *name : kPluginElements)
    elements.emplace_back(name, data.at(name));
  return elements;
}

}  // namespace cftest
