#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The shape check (check_code_shape.py) on hand-made sources (meson test
code_shape_checker): each way of writing a function is found with its length, what is
not a function is not, and a source the parser cannot follow fails, so that a parser
mistake cannot pass the tree unseen."""

import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_code_shape as shape  # noqa: E402


def body(lines):
    """`lines` statements, one a line."""
    return "".join(f"  x += {i};\n" for i in range(lines))


def found(text):
    return [(name, first, length, device)
            for name, first, length, device in shape.functions(text)]


class Functions(unittest.TestCase):
    def test_gnu_style(self):
        text = "/* a comment */\nstatic int\nf (int a,\n    int b)\n{\n" + body(3) + "}\n"
        self.assertEqual(found(text), [("f", 2, 8, False)])

    def test_k_and_r_and_namespace(self):
        text = ("namespace cf {\nnamespace {\n\nint g(int a) {\n" + body(2) + "}\n\n"
                "}  // namespace\n}  // namespace cf\n")
        self.assertEqual(found(text), [("g", 4, 4, False)])

    def test_methods_in_a_class_body(self):
        text = ("template <typename T>\nstruct S : Base<T> {\n public:\n"
                "  explicit S(int a) : a_(a), b_{a} {\n" + body(2) + "  }\n"
                "  int get() const { return a_; }\n"
                "  bool operator==(const S &o) const noexcept { return a_ == o.a_; }\n"
                "  explicit operator bool() const { return a_ != 0; }\n"
                " private:\n  int a_ = 0;\n  int b_{0};\n};\n")
        self.assertEqual(found(text), [("S", 4, 4, False), ("get", 8, 1, False),
                                       ("operator==", 9, 1, False),
                                       ("operator bool", 10, 1, False)])

    def test_constructor_definitions(self):
        text = ("S::S (int a)\n    : a_ (a), f_ ([this] {\n      return a_;\n    })\n{\n}\n\n"
                "S & S::operator= (const S & o)\n{\n  return *this;\n}\n")
        self.assertEqual(found(text), [("S::S", 1, 6, False),
                                       ("S::operator=", 8, 4, False)])

    def test_device_functions(self):
        text = ("template <int K>\n__global__ void __launch_bounds__(256)\n"
                "    kernel(const int *p, int n) {\n" + body(4) + "}\n"
                "__device__ __forceinline__ static int d(int a) { return a; }\n"
                "CF_HOST_DEVICE constexpr int h(int a) { return a; }\n"
                "__host__ int host(int a) {\n  return a;\n}\n")
        self.assertEqual(found(text), [("kernel", 1, 8, True), ("d", 9, 1, True),
                                       ("h", 10, 1, True), ("host", 11, 3, False)])

    def test_what_is_not_a_function(self):
        text = ("// int f() {\n/* int g() { */\nconst char *s = \"h() {\";\n"
                "#define M(x) do { x; } while (0)\n#if 0\n#endif\n"
                "enum class E : int { A, B };\nstatic const int table[] = { 1, 2 };\n"
                "static const auto lambda = [](int a) {\n  return a;\n};\n"
                "const S s{f(1)};\nchar c = '{';\nint n = 1'000;\n"
                "G_DEFINE_TYPE (A, a, B);\nextern \"C\" {\nint e (void)\n{\n  return 0;\n}\n}\n")
        self.assertEqual(found(text), [("e", 17, 4, False)])

    def test_blocks_and_lambdas_inside_count_for_their_function(self):
        text = ("void f() {\n  auto l = [](int a) {\n    return a;\n  };\n"
                "  if (l(1)) {\n    struct L { int m() { return 0; } };\n  }\n}\n")
        self.assertEqual(found(text), [("f", 1, 8, False)])

    def test_unbalanced_braces_are_refused(self):
        for text in ("int f() {\n", "int f() {\n}\n}\n",
                     "#if A\nint f(int a) {\n#else\nint f(int a, int b) {\n#endif\n}\n"):
            with self.assertRaises(ValueError):
                shape.functions(text)


class Tree(unittest.TestCase):
    def check(self, files, allowances=None):
        with tempfile.TemporaryDirectory() as root:
            for name, text in files.items():
                path = pathlib.Path(root, name)
                path.parent.mkdir(exist_ok=True)
                path.write_text(text)
            return [line.replace(root + "/", "")
                    for line in shape.check(root, allowances or {})]

    def test_limits(self):
        host = shape.KERNELS["host_lines"]
        device = shape.KERNELS["device_lines"]
        files = {
            "plugin/a.cpp": "int\nfine (void)\n{\n" + body(56) + "}\n"
                            "int\nlong_one (void)\n{\n" + body(57) + "}\n"
                            "static void\nx_class_init (void)\n{\n" + body(90) + "}\n"
                            "void\nx_install_properties (void)\n{\n" + body(90) + "}\n",
            "plugin/cfbasefilter.cpp": "int\nf (void)\n{\n}\n" + "\n" * 597,
            "plugin/big.h": "int\nf (void)\n{\n}\n" + "\n" * 796,
            "kernels/k.cu": "__global__ void k() {\n" + body(device - 2) + "}\n"
                            "__device__ int too_long() {\n" + body(device - 1) + "}\n"
                            "int host(int a) {\n" + body(host - 1) + "}\n",
            "kernels/x_class_init.h": "void x_class_init() {\n" + body(host - 1) + "}\n",
            "kernels/notes.txt": "int f() {\n" + body(200) + "}\n",
        }
        self.assertEqual(self.check(files), [
            "plugin/a.cpp:61: long_one: 61 lines (at most 60)",
            "plugin/cfbasefilter.cpp:1: cfbasefilter.cpp: 601 lines (at most 600)",
            "kernels/k.cu:101: too_long: 101 lines (at most 100)",
            "kernels/k.cu:202: host: 61 lines (at most 60)",
            "kernels/x_class_init.h:1: x_class_init: 61 lines (at most 60)",
        ])
        # big.h: 801 lines in plugin/.
        files["plugin/big.h"] += "\n"
        self.assertIn("plugin/big.h:1: big.h: 801 lines (at most 800)", self.check(files))

    def test_allowances(self):
        folder, name, most = "kernels", "long_kernel", 140
        allowances = {(folder, name): (most, "why")}
        limit = shape.RULES[folder]["device_lines"]

        def kernel(lines):
            return {f"{folder}/k.cu": f"__global__ void {name}() {{\n" + body(lines - 2) + "}\n",
                    "plugin/p.cpp": "int\nf (void)\n{\n}\n"}
        self.assertEqual(self.check(kernel(most), allowances), [])
        self.assertEqual(self.check(kernel(most + 1), allowances),
                         [f"{folder}/k.cu:1: {name}: {most + 1} lines (at most {most})"])
        self.assertEqual(self.check(kernel(limit), allowances), [
            f"{folder}/k.cu:1: {name}: {limit} lines, within {limit}: its allowance in "
            "ALLOWED is no longer needed"])
        self.assertEqual(self.check({"plugin/p.cpp": "int\nf (void)\n{\n}\n",
                                     f"{folder}/k.cu": "int\ng (void)\n{\n}\n"}, allowances),
                         [f"{folder}: {name}: allowed in ALLOWED, not found"])

    def test_what_cannot_be_read_fails(self):
        self.assertEqual(self.check({"kernels/a.h": "int f() {\n"}), [
            "kernels/a.h:line 1: an opening brace never closed: the shape check cannot read it",
            "kernels: no function found in 1 files: the shape check cannot read them",
        ])

    def test_the_tree(self):
        """The source tree's own files are read: every one parses, and each folder
        has functions in it; every allowance names a function of the tree."""
        root = pathlib.Path(__file__).resolve().parent.parent
        for folder in shape.RULES:
            for path in pathlib.Path(root, folder).glob("*"):
                if path.suffix in shape.RULES[folder]["suffixes"]:
                    shape.functions(path.read_text())
        self.assertEqual([line for line in shape.check(root) if "ALLOWED" in line], [])


if __name__ == "__main__":
    unittest.main(verbosity=1)
