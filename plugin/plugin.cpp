// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include <gst/gst.h>

#include "gstcudagauss.h"
#include "gstcudahist.h"
#include "gstcudamedian.h"
#include "gstcudaredact.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  return GST_ELEMENT_REGISTER (cudamedian, plugin) &&
      GST_ELEMENT_REGISTER (cudagauss, plugin) &&
      GST_ELEMENT_REGISTER (cudahist, plugin) &&
      GST_ELEMENT_REGISTER (cudaredact, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudafilters,
    "Video filters on NVIDIA GPUs: median, Gaussian, histogram, redaction",
    plugin_init, PACKAGE_VERSION, "LGPL", GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
