// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Runs inputs through the fuzz target once each, without libFuzzer: the kept
// corpus as a regression test (meson test fuzz_corpus), or one reproducer.
//   fuzz-replay PATH...   every file of each folder PATH (sorted), or file PATH
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; i++) {
    if (fs::is_directory(argv[i])) {
      for (const auto &entry : fs::directory_iterator(argv[i]))
        if (entry.is_regular_file())
          inputs.push_back(entry.path());
    } else {
      inputs.emplace_back(argv[i]);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) {
    fprintf(stderr, "usage: %s FOLDER|FILE...: no inputs found\n", argv[0]);
    return 1;
  }
  for (const fs::path &path : inputs) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      fprintf(stderr, "cannot read %s\n", path.c_str());
      return 1;
    }
    const std::vector<char> bytes{std::istreambuf_iterator<char>(file),
                                  std::istreambuf_iterator<char>()};
    printf("%s (%zu bytes)\n", path.filename().c_str(), bytes.size());
    fflush(stdout);  // the last name printed is the input that failed
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  }
  printf("%zu inputs, no failure\n", inputs.size());
  return 0;
}
