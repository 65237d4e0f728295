// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "deviceproblem.h"

#include "cudafaults.h"

namespace {

/* "13.0" of 13000, as cudaRuntimeGetVersion and cudaDriverGetVersion give it. */
std::string
cuda_version (int version)
{
  return std::to_string (version / 1000) + "." +
      std::to_string (version % 1000 / 10);
}

/* The oldest Linux driver branch that runs a CUDA major version's runtime
 * (NVIDIA's CUDA compatibility tables); 0 where not known here. */
int
driver_branch_for (int runtime_version)
{
  switch (runtime_version / 1000) {
    case 13:
      return 580;
    case 12:
      return 525;
    case 11:
      return 450;
    default:
      return 0;
  }
}

/* The installed driver's CUDA version, or a fault plan's stand-in; 0: none. */
int
driver_version ()
{
  int version = 0;
  if (cf_faults_driver_version (&version))
    return version;
  if (cudaDriverGetVersion (&version) != cudaSuccess)
    return 0;
  return version;
}

std::string
driver_needed (int runtime)
{
  const int branch = driver_branch_for (runtime);
  return "CUDA " + cuda_version (runtime) + (branch ? " (driver " +
      std::to_string (branch) + " or newer)" : "");
}

}  // namespace

std::string
cf::describe_device_problem (cudaError_t err)
{
  int runtime = 0;
  if (cudaRuntimeGetVersion (&runtime) != cudaSuccess)
    runtime = CUDART_VERSION;
  const int driver = driver_version ();
  const bool driver_error = err == cudaErrorInsufficientDriver ||
      err == cudaErrorCallRequiresNewerDriver || err == cudaErrorNoDevice;
  if (driver_error && driver == 0)
    return "no NVIDIA driver is installed (libcuda cannot be loaded): install "
        "one for " + driver_needed (runtime);
  switch (err) {
    case cudaErrorInsufficientDriver:
    case cudaErrorCallRequiresNewerDriver:
      if (driver < runtime)
        return "the NVIDIA driver runs CUDA " + cuda_version (driver) +
            " at most, and this build of the plugin needs " +
            driver_needed (runtime) + ": update the driver, or build the "
            "plugin with a CUDA toolkit no newer than " + cuda_version (driver);
      break;
    case cudaErrorNoDevice:
      return "the NVIDIA driver (CUDA " + cuda_version (driver) + ") sees no "
          "GPU: check nvidia-smi, and that the GPU is visible here "
          "(CUDA_VISIBLE_DEVICES, a container's GPU access)";
    case cudaErrorDevicesUnavailable:
      return "the GPU is busy or unavailable to this process: its compute "
          "mode is exclusive-process and another process holds it, or "
          "prohibited (nvidia-smi -q -d COMPUTE shows it)";
    case cudaErrorSystemDriverMismatch:
      return "the NVIDIA driver's kernel module and its library are of "
          "different versions: reboot, or reinstall the driver";
    default:
      break;
  }
  return std::string ("CUDA error ") + cudaGetErrorName (err) + ": " +
      cudaGetErrorString (err);
}
