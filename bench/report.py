#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""Turns the JSON of bench/stream-bench, bench/kernel-times (with CuPy's times from
bench/cupy_times.py beside it) and (frames on the GPU) stream-bench --memory cuda and
bench/decode-bench into results.md (Markdown tables) and plot.png (bar charts) in one
folder.

  python3 bench/report.py --stream stream.json --kernels kernels.json [--cupy cupy.json] \
      [--device-stream device-stream.json] [--decode decode.json] OUTDIR

Any input may be missing; fields missing from a record show as blanks.
Python 3 standard library and matplotlib (Agg) only.
"""
import argparse
import json
import os
import sys


def load(path):
    """The parsed JSON file, or None with a warning."""
    if not path:
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"report.py: cannot read {path}: {e}", file=sys.stderr)
        return None


def kernel_records(data):
    """kernel-times JSON: a list of records, or an object holding them."""
    if data is None:
        return [], None
    if isinstance(data, list):
        return [r for r in data if isinstance(r, dict)], None
    if isinstance(data, dict):
        for key in ("measurements", "results", "kernels", "records", "cases"):
            if isinstance(data.get(key), list):
                return [r for r in data[key] if isinstance(r, dict)], data.get("device")
    return [], None


def num(value, fmt="{:.1f}"):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "" if value is None else str(value)
    return fmt.format(value)


def text(value):
    if value is None:
        return ""
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def size_of(record):
    size = record.get("size")
    if size is None and "width" in record and "height" in record:
        size = f"{record['width']}x{record['height']}"
    return text(size)


def case_key(record):
    return (size_of(record), text(record.get("format")), text(record.get("kernel")),
            text(record.get("params")))


def merge_cupy(records, cupy):
    """Puts each case's cupy_us (bench/cupy_times.py) into its kernel-times record."""
    times = {case_key(r): r.get("cupy_us") for r in kernel_records(cupy)[0]}
    for r in records:
        if times.get(case_key(r)) is not None:
            r["cupy_us"] = times[case_key(r)]


def is_time(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def kernel_table(records):
    """One row a case; a CuPy column, and the ratio to the faster of NPP and CuPy, where
    CuPy's times are there."""
    with_cupy = any("cupy_us" in r for r in records)
    peers = ["NPP (us)"] + (["CuPy (us)"] if with_cupy else [])
    ratio = "vs best peer" if with_cupy else "vs NPP"
    lines = ["| size | format | kernel | params | ours (us) | " + " | ".join(peers)
             + f" | CPU (us) | GPix/s | {ratio} | speedup |",
             "|---|---|---|---|---|" + "---|" * len(peers) + "---|---|---|---|"]
    for r in records:
        ours = r.get("ours_us")
        peer_times = [r.get("npp_us")] + ([r.get("cupy_us")] if with_cupy else [])
        best = min((t for t in peer_times if is_time(t)), default=None)
        vs_peer = f"{best / ours:.2f}x" if best is not None and is_time(ours) else ""
        speedup = r.get("speedup")
        lines.append("| " + " | ".join(
            [size_of(r), text(r.get("format")), text(r.get("kernel")),
             text(r.get("params")), num(ours)] + [num(t) for t in peer_times]
            + [num(r.get("cpu_us")), num(r.get("gpix_s"), "{:.2f}"), vs_peer,
               num(speedup, "{:.1f}x") if speedup is not None else ""]) + " |")
    return lines


def stream_tables(stream):
    lines = []
    pcie = stream.get("pcie") or []
    if any(p.get("both_fps") for p in pcie):
        lines += ["PCIe bound, pinned host memory, measured in the same run "
                  "(up and down at once on two streams; upload alone):", "",
                  "| format | size | MB | up (us) | down (us) | up+down fps "
                  "| up alone (us) | up-only fps | up GB/s |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for p in pcie:
            mb = p.get("bytes")
            lines.append("| " + " | ".join([
                text(p.get("format")), text(p.get("size")),
                num(mb / 1e6 if isinstance(mb, (int, float)) else None, "{:.2f}"),
                num(p.get("up_us")), num(p.get("down_us")), num(p.get("both_fps")),
                num(p.get("up_alone_us")), num(p.get("up_fps")),
                num(p.get("up_gb_s"))]) + " |")
        lines.append("")
    else:
        lines += [f"PCIe bound not available: {stream.get('pcie_note') or 'no device'}.", ""]

    lines += [f"{stream.get('frames', '?')} frames per case, backend "
              f"{stream.get('backend', '?')}; fps from the first push to EOS at "
              "the sink; % of the bound: of up+down, for cudahist of upload "
              "alone; latency: median time from push to fakesink's handoff, "
              "one frame at a time, 1 in flight.", "",
              "| element | format | size | in flight | input | fps | % of PCIe bound "
              "| latency (us) | backend | note |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for c in stream.get("cases") or []:
        frac = c.get("fraction_of_bound")
        pct = f"{100 * frac:.0f}% ({c.get('bound')})" if isinstance(frac, (int, float)) else ""
        lines.append("| " + " | ".join([
            text(c.get("element")), text(c.get("format")), text(c.get("size")),
            text(c.get("frames_in_flight")) or "-", text(c.get("input")),
            num(c.get("fps")), pct, num(c.get("latency_us"), "{:.0f}"),
            text(c.get("active_backend")), text(c.get("note"))]) + " |")
    return lines


def pct(value):
    return f"{100 * value:.0f}%" if isinstance(value, (int, float)) else ""


def device_stream_tables(data):
    """stream-bench --memory cuda: frames prepared once in CUDA memory."""
    lines = [f"{data.get('frames', '?')} frames per case, backend "
             f"{data.get('backend', '?')}, frames in a GstCudaBufferPool of one "
             "GstCudaContext that the pipeline shares, pushed as "
             "video/x-raw(memory:CUDAMemory) through appsrc ! ELEMENT ! fakesink. "
             "Kernel time per frame: given (--kernel-us), or the time the kernels "
             "ran in a traced run (CUPTI, "
             f"{data.get('census_frames', '?')} frames) of the same case at 1 frame "
             "in flight (no other frame's kernels beside them); host overhead = wall "
             "time - kernel time; % of the kernel bound = kernel time / wall time "
             "(deeper runs overlap frames' kernels and may pass 100%); busy: the "
             "time kernels ran per frame in the row's own traced run. x PCIe: fps over the pinned up+down "
             "bound measured in the same run (above 1, no frame can have made the "
             "round trip). Copies in the traced run: host->device / device->host / "
             "on the device; bytes: what crossed the bus per frame. Maps: "
             "GstCudaMemory maps to the host / downloads / uploads in the timed run. "
             "On device: every buffer on every link was CUDA memory of our context, "
             "no map left the device, and under 1% of a frame per frame crossed "
             "the bus. The control rows copy on purpose (output forced to system "
             "memory; every frame mapped on the host at the sink): they must say "
             "NO, or the yes of the others means nothing.", ""]
    if data.get("census_note"):
        lines += [f"No traced runs: {data['census_note']}.", ""]
    lines += ["| element | format | size | in flight | fps | us/frame | kernel us "
              "| overhead us | % of kernel bound | busy us | x PCIe | copies (traced) "
              "| bytes over bus/frame | maps | on device | note |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in data.get("cases") or []:
        census = c.get("census") or {}
        copies = ""
        if census.get("ok"):
            copies = (f"{census.get('up', 0)}/{census.get('down', 0)}/"
                      f"{census.get('device_copies', 0)}")
        kernel = num(c.get("kernel_us"))
        if kernel and c.get("kernel_source") == "given":
            kernel += " (given)"
        maps = ""
        if c.get("host_maps") is not None:
            maps = f"{c.get('host_maps')}/{c.get('downloads')}/{c.get('uploads')}"
        lines.append("| " + " | ".join([
            text(c.get("element")), text(c.get("format")), text(c.get("size")),
            text(c.get("frames_in_flight")) or "-", num(c.get("fps")),
            num(c.get("us_per_frame")), kernel, num(c.get("host_overhead_us")),
            pct(c.get("fraction_of_kernel_bound")),
            num(c.get("kernel_busy_us_traced")),
            num(c.get("times_pcie_bound"), "{:.2f}x"), copies,
            num(census.get("host_copy_bytes_per_frame"), "{:.0f}"), maps,
            text(c.get("device_resident")), text(c.get("note"))]) + " |")
    return lines


def decode_tables(data):
    """decode-bench: filesrc ! qtdemux ! h264parse ! nvh264dec ! ... ! fakesink."""
    lines = [f"Clip {data.get('clip', '?')}"
             + (f" (made with {data['clip_made_with']})" if data.get("clip_made_with") else "")
             + f", {data.get('runs', '?')} timed runs per pipeline, interleaved, after "
             "a warm-up; fps: median from the first frame at the sink to the last "
             "(min-max over the runs); whole clip: frames over PLAYING to EOS. "
             "Baselines: nvh264dec ! fakesink (the decoder's own choice of memory) "
             "and nvh264dec ! video/x-raw(memory:CUDAMemory) ! fakesink. No "
             "cudadownload anywhere: links on device says whether every link after "
             "the decoder carried CUDA memory of one context. Traced run (CUPTI): "
             "time per frame in which kernels ran, copies host->device / "
             "device->host / on the device.", ""]
    goal = data.get("goal") or {}
    if goal:
        own, dev = goal.get("vs_decoder_alone"), goal.get("vs_decoder_in_cuda_memory")
        lines += [f"Goal: `{goal.get('case')}` within "
                  f"{100 * (1 - goal.get('fraction', 0.95)):.0f}% of `nvh264dec ! fakesink`: "
                  f"{pct(own) if own is None else f'{100 * own:.1f}%'} of it, "
                  f"{'met' if goal.get('met') else 'NOT met'}; of the decoder kept in "
                  f"CUDA memory: {'' if dev is None else f'{100 * dev:.1f}%'}, "
                  f"{'met' if goal.get('met_vs_cuda_memory') else 'NOT met'}.", ""]
    if data.get("census_note"):
        lines += [f"No traced runs: {data['census_note']}.", ""]
    lines += ["| pipeline | frames | in flight | fps | min-max | whole clip fps "
              "| vs decoder alone | vs decoder in CUDA memory | at sink "
              "| links on device | kernel us/frame | copies (traced) | note |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in data.get("cases") or []:
        census = c.get("census") or {}
        copies = ""
        if census.get("ok"):
            copies = (f"{census.get('up', 0)}/{census.get('down', 0)}/"
                      f"{census.get('device_copies', 0)}")
        span = ""
        if isinstance(c.get("fps_min"), (int, float)) and isinstance(c.get("fps_max"), (int, float)):
            span = f"{c['fps_min']:.0f}-{c['fps_max']:.0f}"
        own = c.get("vs_decoder_alone")
        dev = c.get("vs_decoder_in_cuda_memory")
        lines.append("| " + " | ".join([
            f"`{text(c.get('pipeline'))}`", text(c.get("frames")),
            text(c.get("frames_in_flight")) or "-", num(c.get("fps")), span,
            num(c.get("fps_whole_clip")),
            "" if own is None else f"{100 * own:.1f}%",
            "" if dev is None else f"{100 * dev:.1f}%",
            text(c.get("sink_memory")),
            "-" if c.get("baseline") else ("yes" if c.get("on_device") else "NO"),
            num(census.get("kernel_busy_us_per_frame")) if census.get("ok") else "",
            copies, text(c.get("note"))]) + " |")
    return lines


def plot(records, stream, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"report.py: no plot ({e})", file=sys.stderr)
        return False

    panels = []
    picked = [r for r in records if size_of(r) == "3840x2160"
              and r.get("format") == "GRAY8" and isinstance(r.get("gpix_s"), (int, float))]
    if picked:
        panels.append("kernels")
    cases = [c for c in (stream or {}).get("cases") or []
             if isinstance(c.get("fps"), (int, float))
             and (c.get("input") == "pool")
             and (c.get("frames_in_flight") in (None, 2))]
    if cases:
        panels.append("stream")
    if not panels:
        print("report.py: nothing to plot", file=sys.stderr)
        return False

    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 5 * len(panels)),
                             squeeze=False)
    for ax, panel in zip(axes[:, 0], panels):
        if panel == "kernels":
            labels = [f"{r.get('kernel', '?')}\n{text(r.get('params'))}" for r in picked]

            def peer_gpix(r, peer):
                """A peer's GPix/s from its time: ours scaled by our time over its."""
                o, p = r.get("ours_us"), r.get(f"{peer}_us")
                ok = isinstance(o, (int, float)) and isinstance(p, (int, float)) and p > 0
                return r["gpix_s"] * o / p if ok else 0

            bars = [("ours", [r["gpix_s"] for r in picked]),
                    ("NPP", [r["npp_gpix_s"] if isinstance(r.get("npp_gpix_s"), (int, float))
                             else peer_gpix(r, "npp") for r in picked])]
            if any(isinstance(r.get("cupy_us"), (int, float)) for r in picked):
                bars.append(("CuPy", [peer_gpix(r, "cupy") for r in picked]))
            x = range(len(picked))
            width = 0.8 / len(bars)
            for k, (label, values) in enumerate(bars):
                offset = (k - (len(bars) - 1) / 2) * width
                ax.bar([i + offset for i in x], values, width, label=label)
            ax.set_xticks(list(x))
            ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
            ax.set_ylabel("GPix/s")
            ax.set_title("Kernels, 3840x2160 GRAY8, frame on the device")
            ax.legend()
        else:
            labels = [f"{c.get('element')}\n{c.get('format')} {c.get('size')}" for c in cases]
            fps = [c["fps"] for c in cases]
            bound = [c.get("bound_fps") or 0 for c in cases]
            x = range(len(cases))
            ax.bar([i - 0.2 for i in x], fps, 0.4, label="measured fps (2 in flight)")
            if any(bound):
                ax.bar([i + 0.2 for i in x], bound, 0.4, label="PCIe bound")
            ax.set_xticks(list(x))
            ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
            ax.set_yscale("log")
            ax.set_ylabel("frames/s (log)")
            title = f"Stream level, {stream.get('device') or 'no device'}, backend {stream.get('backend')}"
            if not any(bound):
                title += " (PCIe bound not available)"
            ax.set_title(title)
            ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--stream", help="stream-bench --json output")
    parser.add_argument("--kernels", help="kernel-times --json output")
    parser.add_argument("--cupy", help="bench/cupy_times.py --json output")
    parser.add_argument("--device-stream", help="stream-bench --memory cuda --json output")
    parser.add_argument("--decode", help="decode-bench --json output")
    args = parser.parse_args()

    stream = load(args.stream)
    device_stream = load(args.device_stream)
    decode = load(args.decode)
    records, kernel_device = kernel_records(load(args.kernels))
    cupy = load(args.cupy)
    merge_cupy(records, cupy)
    device = ((stream or {}).get("device") or kernel_device
              or (device_stream or {}).get("device") or (decode or {}).get("device"))
    if device is None:
        device = next((r.get("device") for r in records if r.get("device")), None)

    os.makedirs(args.outdir, exist_ok=True)
    lines = [f"# Benchmarks, {device or 'no CUDA device'}", ""]
    if stream:
        lines += [f"{stream.get('date', '')}, {stream.get('gstreamer', '')}", ""]
    lines += ["## Kernel level", ""]
    if records:
        with_cpu = any(is_time(r.get("cpu_us")) for r in records)
        lines += ["Frames already on the device, CUDA events, median of many runs; "
                  + ("NPP and the CPU backend in the same run" if with_cpu else
                     "NPP in the same run, not the CPU backend (its column is empty)")
                  + (f", CuPy ({cupy.get('library')}) right after it" if cupy else "")
                  + ".", ""]
        lines += kernel_table(records)
    else:
        lines.append("No kernel results.")
    lines += ["", "## Stream level", ""]
    lines += stream_tables(stream) if stream else ["No stream results."]
    if device_stream:
        lines += ["", "## Stream level, frames on the GPU", ""]
        lines += device_stream_tables(device_stream)
    if decode:
        lines += ["", "## Decoder level", ""]
        lines += decode_tables(decode)
    lines.append("")

    with open(os.path.join(args.outdir, "results.md"), "w") as f:
        f.write("\n".join(lines))
    plotted = plot(records, stream, os.path.join(args.outdir, "plot.png"))
    print(f"wrote {os.path.join(args.outdir, 'results.md')}"
          + (" and plot.png" if plotted else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
