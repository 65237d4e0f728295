source .gpu/gst-env.sh "$PWD/.gpu/gst-sysroot.tgz" >/dev/null 2>&1
build=/tmp/build-gpu
ninja -C $build > /dev/null
export GST_PLUGIN_PATH=$build/plugin
GST_DEBUG=cudafilter:6,cfpinnedallocator:6 gst-launch-1.0 -q videotestsrc num-buffers=20 pattern=solid-color ! video/x-raw,format=RGBA,width=3840,height=2160,framerate=1000/1 ! cudamedian frames-in-flight=2 ! fakesink > $OUT/debug.log 2>&1
grep -E "pinned|slot" $OUT/debug.log | sed 's/\x1b\[[0-9;]*m//g' | cut -c1-20,100-300 | head -30
