#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""hist-messages: cudahist's histograms from its bus messages.

Runs

    videotestsrc num-buffers=FRAMES pattern=PATTERN
      ! video/x-raw,format=FORMAT,width=WIDTH,height=HEIGHT,framerate=30/1
      ! cudahist bins=BINS interval-frames=N interval=NS backend=BACKEND
      ! fakesink

and prints, for every "cudahist" element message, its running time and, per
channel, min, max, mean, p1, p50, p99 and a 16-column text histogram
(" .:-=+*#%@": empty to fullest column). --plot FILE.png draws the last
message's histograms with matplotlib, or prints them as text bars where
matplotlib is missing. --check also verifies every message (bins against
total, percentiles against the bins, a message for each frame that
interval-frames and interval let post, no other) and exits 0 or 1; the test
suite runs it so.

Needs PyGObject, the Gst 1.0 typelib and gst-python's overrides, which read
the array fields (Debian: python3-gi, gir1.2-gstreamer-1.0, python3-gst-1.0):

    GST_PLUGIN_PATH=build/plugin /usr/bin/python3 examples/hist-messages.py --format NV12 --bins 64

Exit status: 0 done (and, with --check, every message right); 1 a pipeline
error or a failed check; 2 bad options; 77 with --check or --probe, this
Python lacks what the example needs (the test reports itself skipped).
"""
import argparse
import struct
import sys

SKIP = 77
# One coarse column per 1/16 of the bins, drawn with these, emptiest first.
COLUMNS = 16
RAMP = " .:-=+*#%@"
BAR_WIDTH = 50
FIELDS = ("channels", "range-min", "range-max", "bins", "total", "below",
          "above", "min", "max", "mean", "p1", "p50", "p99", "timestamp",
          "stream-time", "running-time", "duration")
PER_CHANNEL = ("bins", "total", "below", "above", "min", "max", "mean", "p1",
               "p50", "p99")
# Channels that have a sample at every pixel (U and V may be subsampled).
FULL_RESOLUTION = {"gray", "Y", "R", "G", "B", "A"}
FRAMERATE = 30


def import_gst():
    """(Gst, None), or (None, why not) when this Python cannot run the example."""
    try:
        import gi
    except ImportError:
        return None, "no module 'gi' (PyGObject; Debian: python3-gi)"
    try:
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
    except (ValueError, ImportError) as err:
        return None, "no Gst 1.0 typelib ({}; Debian: gir1.2-gstreamer-1.0)".format(err)
    Gst.init(None)
    # Without gst-python's overrides PyGObject cannot read GstValueArray fields,
    # which hold every per-channel result.
    probe = Gst.Structure.from_string("probe, a=(uint)<1, 2>")[0]
    try:
        list(probe.get_value("a"))
    except TypeError:
        return None, ("gst-python's overrides are missing, so array fields cannot "
                      "be read (Debian: python3-gst-1.0)")
    return Gst, None


def parse_args():
    parser = argparse.ArgumentParser(
        description="Histograms from cudahist's bus messages, printed or plotted")
    parser.add_argument("--frames", type=int, default=30,
                        help="frames to count (default 30)")
    parser.add_argument("--format", default="I420",
                        help="video format, any cudahist takes (default I420)")
    parser.add_argument("--width", type=int, default=640, help="default 640")
    parser.add_argument("--height", type=int, default=480, help="default 480")
    parser.add_argument("--pattern", default="smpte",
                        help="videotestsrc pattern (default smpte)")
    parser.add_argument("--bins", type=int, default=256,
                        help="bins per channel (default 256)")
    parser.add_argument("--backend", default="auto", choices=("auto", "cuda", "cpu"),
                        help="default auto")
    parser.add_argument("--interval-frames", type=int, default=1,
                        help="frames from one message to the next (default 1)")
    parser.add_argument("--interval", type=int, default=100000000, metavar="NS",
                        help="least running time from one message to the next, "
                        "in nanoseconds (default 100000000, the element's; 0: "
                        "every frame interval-frames lets post)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the last message's histograms into FILE.png "
                        "(text bars without matplotlib)")
    parser.add_argument("--check", action="store_true",
                        help="verify every message; exit 0 or 1 (77: no bindings)")
    parser.add_argument("--probe", action="store_true",
                        help="only say whether this Python can run the example")
    args = parser.parse_args()
    for name in ("frames", "width", "height", "bins", "interval_frames"):
        if getattr(args, name) < 1:
            parser.error("--{} must be positive".format(name.replace("_", "-")))
    if args.interval < 0:
        parser.error("--interval must not be negative")
    return args


# ---- reading a message ----

def plain(value):
    """A field's value with Gst.ValueArray turned into lists, nested too, and
    each channel's counts (a Gst.Buffer of guint32 in this machine's byte order)
    into a list of ints."""
    if isinstance(value, (str, bytes)):
        return value
    if hasattr(value, "extract_dup"):
        data = value.extract_dup(0, value.get_size())
        return list(struct.unpack("={}I".format(len(data) // 4), data))
    try:
        items = list(value)
    except TypeError:
        return value
    return [plain(item) for item in items]


def read_results(structure):
    """The message's fields as a dict of plain Python values."""
    return {name: plain(structure.get_value(name))
            for name in FIELDS if structure.has_field(name)}


def format_time(ns):
    """h:mm:ss.nnnnnnnnn, as GStreamer prints times."""
    if ns is None or ns == 2**64 - 1:
        return "99:99:99.999999999"
    seconds, ns = divmod(ns, 1000000000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return "{}:{:02d}:{:02d}.{:09d}".format(hours, minutes, seconds, ns)


def coarse(bins, columns=COLUMNS):
    """bins summed into `columns` groups (fewer when there are fewer bins)."""
    columns = min(columns, len(bins))
    return [sum(bins[g * len(bins) // columns:(g + 1) * len(bins) // columns])
            for g in range(columns)]


def sparkline(bins):
    groups = coarse(bins)
    top = max(groups) or 1
    # Any count at all shows; only an empty column is blank.
    return "".join(RAMP[-(-count * (len(RAMP) - 1) // top)] for count in groups)


def bin_first_value(b, n_bins, lower, upper):
    """The smallest sample value of bin b: (v - lower) * n_bins // values == b."""
    values = upper - lower + 1
    return lower + -(-b * values // n_bins)


def print_message(number, results):
    channels = results["channels"]
    print("message {}: running time {}, {} channel{}".format(
        number, format_time(results["running-time"]), len(channels),
        "" if len(channels) == 1 else "s"))
    lower, upper = results["range-min"], results["range-max"]
    for c, name in enumerate(channels):
        print("  {:<4} min {:5d}  max {:5d}  mean {:9.2f}  p1 {:5d}  p50 {:5d}  "
              "p99 {:5d}  {}..{} [{}]".format(
                  name, results["min"][c], results["max"][c], results["mean"][c],
                  results["p1"][c], results["p50"][c], results["p99"][c], lower,
                  upper, sparkline(results["bins"][c])))


# ---- --check ----

def percentile(bins, binned, lower, upper, percent):
    """As the element documents it: the smallest value v such that at least
    percent % of the binned samples are <= v, resolved to the last value of v's
    bin; 0 with nothing binned."""
    if binned == 0:
        return 0
    needed = -(-binned * percent // 100)
    cumulative = 0
    for b, count in enumerate(bins):
        cumulative += count
        if cumulative >= needed:
            break
    return bin_first_value(b + 1, len(bins), lower, upper) - 1


def frame_time(frame):
    """videotestsrc's timestamp of a frame, and its running time."""
    return frame * 1000000000 // FRAMERATE


def posted_frames(args):
    """The frames whose results the element posts, by its documented rule: a
    frame once interval-frames frames have come since the last message and its
    running time is at least interval past that message's."""
    frames, since, last = [], 0, None
    for frame in range(args.frames):
        since += 1
        if since < args.interval_frames:
            continue
        if args.interval and last is not None and \
                frame_time(frame) - last < args.interval:
            continue
        frames.append(frame)
        since, last = 0, frame_time(frame)
    return frames


def check_message(number, results, args, frame, problems):
    """Appends to problems what is wrong with one message's results, that of
    `frame`."""
    def problem(text):
        problems.append("message {}: {}".format(number, text))

    missing = [name for name in FIELDS if name not in results]
    if missing:
        problem("missing fields " + ", ".join(missing))
        return
    channels = results["channels"]
    if not channels:
        problem("no channels")
        return
    for name in PER_CHANNEL:
        if len(results[name]) != len(channels):
            problem("{} has {} entries for {} channels".format(
                name, len(results[name]), len(channels)))
            return

    # The only 16-bit format cudahist takes is GRAY16_LE; range-max defaults to
    # the format's maximum.
    lower, upper = results["range-min"], results["range-max"]
    format_max = 65535 if "16" in args.format else 255
    if (lower, upper) != (0, format_max):
        problem("range {}..{}, expected the default 0..{}".format(
            lower, upper, format_max))
    pixels = args.width * args.height
    for c, name in enumerate(channels):
        def field(key):
            return results[key][c]

        def channel_problem(text):
            problem("channel {}: {}".format(name, text))

        bins = field("bins")
        total, below, above = field("total"), field("below"), field("above")
        low, high, mean = field("min"), field("max"), field("mean")
        if len(bins) != args.bins:
            channel_problem("{} bins, asked for {}".format(len(bins), args.bins))
        binned = sum(bins)
        if binned + below + above != total:
            channel_problem("bins sum to {} + below {} + above {} != total {}".format(
                binned, below, above, total))
        if name in FULL_RESOLUTION and total != pixels:
            channel_problem("total {}, the frame has {} pixels".format(total, pixels))
        if below or above:
            channel_problem("below {}, above {} with the format's whole range".format(
                below, above))
            continue
        if total == 0:
            continue
        if not low <= mean <= high:
            channel_problem("mean {} outside min {} .. max {}".format(mean, low, high))
        ps = [field("p1"), field("p50"), field("p99")]
        expected = [percentile(bins, binned, lower, upper, p) for p in (1, 50, 99)]
        if ps != expected:
            channel_problem("p1, p50, p99 = {}, the bins say {}".format(ps, expected))
        if not lower <= ps[0] <= ps[1] <= ps[2] <= upper:
            channel_problem("p1 {} <= p50 {} <= p99 {} within {}..{} fails".format(
                *ps, lower, upper))
        # A percentile is the last value of a bin, so it may lie beyond max in
        # max's bin: compare bins, not values (the same with one value per bin).
        def bin_of(v):
            return (v - lower) * len(bins) // (upper - lower + 1)

        if not bin_of(low) <= bin_of(ps[0]) or not bin_of(ps[2]) <= bin_of(high):
            channel_problem("min {} <= p1 {}, p99 {} <= max {} fail, bin by bin"
                            .format(low, ps[0], ps[2], high))
        # Every sample is binned: min's and max's bins hold at least them.
        if not (bins[bin_of(low)] and bins[bin_of(high)]):
            channel_problem("the bins of min {} and max {} are empty".format(low, high))

    expected_ts = frame_time(frame)
    if abs(results["timestamp"] - expected_ts) > 1:
        problem("timestamp {}, expected that of frame {}, {}".format(
            format_time(results["timestamp"]), frame, format_time(expected_ts)))
    if results["running-time"] != results["timestamp"]:
        problem("running time {} != timestamp {} in a segment from 0".format(
            format_time(results["running-time"]), format_time(results["timestamp"])))


# ---- --plot ----

def text_chart(results):
    print("histograms of the last message (running time {}):".format(
        format_time(results["running-time"])))
    lower, upper = results["range-min"], results["range-max"]
    for c, name in enumerate(results["channels"]):
        bins = results["bins"][c]
        groups = coarse(bins)
        top = max(groups) or 1
        print("  " + name)
        for g, count in enumerate(groups):
            first_bin = g * len(bins) // len(groups)
            end_bin = (g + 1) * len(bins) // len(groups)
            first = bin_first_value(first_bin, len(bins), lower, upper)
            last = bin_first_value(end_bin, len(bins), lower, upper) - 1
            print("    {:5d}..{:<5d} |{:<{width}}| {}".format(
                first, last, "#" * (-(-count * BAR_WIDTH // top)), count,
                width=BAR_WIDTH))


def plot(results, path, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing (Debian: python3-matplotlib): text bars "
              "instead of " + path)
        text_chart(results)
        return True
    colours = {"R": "red", "G": "green", "B": "blue", "U": "tab:purple",
               "V": "tab:orange", "A": "grey"}
    lower, upper = results["range-min"], results["range-max"]
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for c, name in enumerate(results["channels"]):
        bins = results["bins"][c]
        edges = [bin_first_value(b, len(bins), lower, upper)
                 for b in range(len(bins) + 1)]
        axes.stairs(bins, edges, label=name, color=colours.get(name, "black"))
    axes.set_xlim(lower, upper + 1)
    axes.set_xlabel("sample value")
    axes.set_ylabel("samples per bin")
    axes.set_title("cudahist, {} {}x{} {}, {} bins, at {}".format(
        args.pattern, args.width, args.height, args.format, args.bins,
        format_time(results["running-time"])))
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as err:
        print("Could not write {}: {}".format(path, err), file=sys.stderr)
        return False
    print("Wrote " + path)
    return True


# ---- the pipeline ----

def print_problem(Gst, message):
    if message.type == Gst.MessageType.ERROR:
        err, debug = message.parse_error()
        kind = "ERROR"
    else:
        err, debug = message.parse_warning()
        kind = "WARNING"
    print("{} from {}: {}".format(kind, message.src.get_name(), err.message),
          file=sys.stderr)
    if debug:
        print("Additional debug info:\n" + debug, file=sys.stderr)


def run(Gst, args):
    description = (
        "videotestsrc num-buffers={a.frames} pattern={a.pattern} ! "
        "video/x-raw,format={a.format},width={a.width},height={a.height},"
        "framerate={rate}/1 ! cudahist name=hist bins={a.bins} "
        "interval-frames={a.interval_frames} interval={a.interval} "
        "backend={a.backend} ! "
        "fakesink sync=false").format(a=args, rate=FRAMERATE)
    from gi.repository import GLib
    try:
        pipeline = Gst.parse_launch(description)
    except GLib.Error as err:
        print("Could not build \"{}\": {}".format(description, err), file=sys.stderr)
        if "cudahist" in str(err):
            print("Is GST_PLUGIN_PATH set to the build's plugin folder "
                  "(e.g. GST_PLUGIN_PATH=build/plugin)?", file=sys.stderr)
        return False, []
    hist = pipeline.get_by_name("hist")
    bus = pipeline.get_bus()
    messages = []
    ok = pipeline.set_state(Gst.State.PLAYING) != Gst.StateChangeReturn.FAILURE
    if not ok:
        message = bus.pop_filtered(Gst.MessageType.ERROR)
        if message:
            print_problem(Gst, message)
        else:
            print("Could not start the pipeline", file=sys.stderr)
    backend = None
    while ok:
        message = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR
            | Gst.MessageType.WARNING | Gst.MessageType.ELEMENT)
        if message.type == Gst.MessageType.EOS:
            break
        if message.type in (Gst.MessageType.ERROR, Gst.MessageType.WARNING):
            print_problem(Gst, message)
            ok = message.type == Gst.MessageType.WARNING
            continue
        structure = message.get_structure()
        if message.src != hist or structure.get_name() != "cudahist":
            continue
        if backend is None:
            # Read while playing: the element reports "auto" once stopped.
            backend = hist.get_property("active-backend").value_nick
            print("cudahist {}x{} {} bins={} interval-frames={} interval={}, "
                  "backend={}".format(args.width, args.height, args.format,
                                      args.bins, args.interval_frames,
                                      args.interval, backend))
        results = read_results(structure)
        messages.append(results)
        print_message(len(messages), results)
    pipeline.set_state(Gst.State.NULL)
    return ok, messages


def main():
    args = parse_args()
    Gst, why_not = import_gst()
    if Gst is None:
        # meson reads the probe's answer from stdout.
        print("{} cannot run this example: {}".format(sys.executable, why_not),
              file=sys.stdout if args.probe else sys.stderr)
        return SKIP if args.check or args.probe else 1
    if args.probe:
        print("ok: " + sys.executable)
        return 0

    ok, messages = run(Gst, args)
    if not ok:
        return 1
    if args.check:
        problems = []
        expected = posted_frames(args)
        if len(messages) != len(expected):
            problems.append("{} messages, expected {}: {} frames, interval-frames "
                            "{}, interval {} ns".format(
                                len(messages), len(expected), args.frames,
                                args.interval_frames, args.interval))
        for number, (results, frame) in enumerate(zip(messages, expected), 1):
            check_message(number, results, args, frame, problems)
        for text in problems:
            print("FAIL " + text)
        if problems:
            return 1
        print("{} messages of {} frames checked: bins, totals, percentiles and "
              "times agree".format(len(messages), args.frames))
    if args.plot:
        if not messages:
            print("No message to plot", file=sys.stderr)
            return 1
        if not plot(messages[-1], args.plot, args):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
