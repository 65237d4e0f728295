// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The redaction test matrix (kernels/redact.h), shared by the test binary of every
// backend, against the tests' own reference: written the plain way, apart from the
// kernels' arithmetic (it does not use kernels/redact_math.h), per sample trying every
// step of every shape and summing each block's samples in loops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "redact.h"

namespace cftest {

// Runs a redaction on views whose planes lie in `frame` (host memory, `bytes` long),
// with redact_cpu's contract, and returns the backend's result; a device backend
// copies the frame to the device and back inside.
using RedactRunner =
    std::function<cudaError_t(uint8_t *frame, size_t bytes, const std::vector<cf::RedactView> &views,
                              cf::SampleFormat format, const cf::RedactParams &params)>;

// Fill and pixelate x box and ellipse x feathers 0, 1, 5, 40 x invert, on 8-bit,
// 16-bit and P010 samples, planes of 1, 2 (mask 3) and 4 channels (mask 7, alpha kept),
// padded rows and odd sizes, each call with two views (a luma-like and a
// chroma-like one) of random shapes, some overlapping, on random images. Every byte of
// the frame (padding bytes and channels not computed included) is compared with the
// reference, and every changed byte must lie in redact_areas.
void check_redact_matrix(const RedactRunner &run);

// Shapes touching every edge, 1x1 shapes and planes, blocks larger than their box,
// identical and nested shapes, feathers over other boxes, 80 shapes on one spot, 300
// shapes, a view without shapes beside one with, 1-row and 1-column planes: on every
// method, outline, invert and several feathers.
void check_redact_edge_cases(const RedactRunner &run);

// Shapes with masks (random blobs with holes and specks, every byte set, none set,
// one set) beside shapes without, on the planes' edges and over one another: every
// method, outline, feather and invert, 8-bit, 16-bit and P010 samples.
void check_redact_masks(const RedactRunner &run);

// Calls redact.h says are not valid: each refused with cudaErrorInvalidValue and no
// byte of the frame written.
void check_redact_invalid_calls(const RedactRunner &run);

}  // namespace cftest
