// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "deviceproblem.h"

#include "cudafaults.h"

std::string
cf::describe_device_problem (cudaError_t err)
{
  int driver = 0;
  if (!cf_faults_driver_version (&driver))
    driver = installed_driver_version ();
  return describe_device_problem (err, driver);
}
