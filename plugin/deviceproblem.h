// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Why no CUDA device is usable, in words that say what to do: the one place
 * that names the cause, for the plugin's warning, info and error messages and
 * for the tests' skip reasons alike (tests/cuda_test_support.h; test programs
 * do not link the plugin, so the words are here, inline). The CUDA runtime
 * says "CUDA driver version is insufficient" alike where no driver is
 * installed and where it is too old; the driver's own version (0 where none is
 * installed) against the runtime's tells the two apart. So a cause named here
 * is never also given in the runtime's words (cudaGetErrorString): messages
 * add only the runtime's error name (cudaErrorInsufficientDriver), for
 * searching. */
#pragma once

#include <string>

namespace cf {

/* Why a build without CUDA (-Dcuda=disabled) uses no device. */
inline constexpr const char *kNoCudaBackend = "this build of gst-cudafilters "
    "has no CUDA backend (built with -Dcuda=disabled)";

}  // namespace cf

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>

namespace cf {

namespace device_problem {

/* "13.0" of 13000, as cudaRuntimeGetVersion and cudaDriverGetVersion give it. */
inline std::string
cuda_version (int version)
{
  return std::to_string (version / 1000) + "." +
      std::to_string (version % 1000 / 10);
}

/* "CUDA 13.0 (driver 580 or newer)": the driver branch that runs a CUDA major
 * version's runtime (NVIDIA's CUDA compatibility tables), where known here. */
inline std::string
driver_needed (int runtime)
{
  int branch = 0;
  switch (runtime / 1000) {
    case 13:
      branch = 580;
      break;
    case 12:
      branch = 525;
      break;
    case 11:
      branch = 450;
      break;
    default:
      break;
  }
  return "CUDA " + cuda_version (runtime) + (branch ? " (driver " +
      std::to_string (branch) + " or newer)" : "");
}

/* The words for a driver that is missing or too old; empty where it is
 * neither. */
inline std::string
driver_words (cudaError_t err, int runtime, int driver)
{
  const bool driver_error = err == cudaErrorInsufficientDriver ||
      err == cudaErrorCallRequiresNewerDriver || err == cudaErrorNoDevice;
  if (driver_error && driver == 0)
    return "no NVIDIA driver is installed (libcuda cannot be loaded): install "
        "one for " + driver_needed (runtime);
  if ((err == cudaErrorInsufficientDriver ||
          err == cudaErrorCallRequiresNewerDriver) && driver < runtime)
    return "the NVIDIA driver runs CUDA " + cuda_version (driver) +
        " at most, and this build of the plugin needs " +
        driver_needed (runtime) + ": update the driver, or build the plugin "
        "with a CUDA toolkit no newer than " + cuda_version (driver);
  return "";
}

}  // namespace device_problem

/* The CUDA version of the installed NVIDIA driver; 0 where none is. */
inline int
installed_driver_version ()
{
  int version = 0;
  if (cudaDriverGetVersion (&version) != cudaSuccess)
    return 0;
  return version;
}

/* What `err` (from counting or opening devices) means with an NVIDIA driver
 * of CUDA version `driver` (0: none installed), and what fixes it: no NVIDIA
 * driver; a driver older than this build's CUDA (the two versions, and the
 * driver branch that would do); no device; a device busy or prohibited; else
 * the CUDA error's own words. */
inline std::string
describe_device_problem (cudaError_t err, int driver)
{
  int runtime = 0;
  if (cudaRuntimeGetVersion (&runtime) != cudaSuccess)
    runtime = CUDART_VERSION;
  const std::string words = device_problem::driver_words (err, runtime,
      driver);
  if (!words.empty ())
    return words;
  switch (err) {
    case cudaErrorNoDevice:
      return "the NVIDIA driver (CUDA " +
          device_problem::cuda_version (driver) + ") sees no GPU: check "
          "nvidia-smi, and that the GPU is visible here (CUDA_VISIBLE_DEVICES, "
          "a container's GPU access)";
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

/* The plugin's: with the installed driver's version, or that of a fault
 * plan's stand-in driver (cudafaults.h). */
std::string describe_device_problem (cudaError_t err);

}  // namespace cf
#endif
