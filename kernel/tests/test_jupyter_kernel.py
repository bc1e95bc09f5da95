"""jupyter_kernel_test suite for the nsysx kernel.

Run by cmd/nsysx/kernel_test.go (TestJupyterKernelTest) against the kernel
installed in a temporary prefix:

    JUPYTER_PATH=<prefix>/share/jupyter NSYSX_PROFILE=<train.sqlite> \
        /usr/bin/python3 -m unittest -v test_jupyter_kernel.py

Every optional sample of jupyter_kernel_test is filled in.
"""

import json
import os
import unittest

import jupyter_kernel_test

PROFILE = os.environ.get("NSYSX_PROFILE", "")


class NsysxKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "nsysx"
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'import "fmt"\nfmt.Println("hello, world")'
    code_stderr = 'import (\n\t"fmt"\n\t"os"\n)\nfmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "nsysx.OpenSam", "matches": {"OpenSample"}},
        {"text": "%ns", "matches": {"%nsys"}},
        {"text": "%nsys stats -r cuda_gpu_kern_s", "matches": {"cuda_gpu_kern_sum"}},
        {"text": "%nsys analyze -r gpu_ga", "matches": {"gpu_gaps"}},
        {"text": "%nsys stats -f hd", "matches": {"hdoc"}},
        {"text": 'p, _ := nsysx.OpenSample()\np.Stats("cuda_api_s', "matches": {"cuda_api_sum"}},
    ]

    complete_code_samples = ["x := 1", "func f() int { return 1 }", "%nsys stats --sample", "%%sql\nSELECT 1",
                             "%open sample\nsample.Base()"]
    incomplete_code_samples = ["func f() {", "x := []int{1,\n2,", "s := `raw", "%open sample\nfor {"]
    invalid_code_samples = ["x := )", "}"]

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": '"nsys" + "x"', "result": "nsysx"},
        {"code": "p, _ := nsysx.OpenSample()\np.Stats(ctx, \"cuda_gpu_kern_sum\")", "mime": "text/html"},
    ]
    code_display_data = [
        {"code": 'import "nsysx/cell"\ncell.Display(3)', "mime": "text/plain"},
        {"code": "%nsys stats --sample -r cuda_gpu_kern_sum", "mime": "text/html"},
        {"code": "%open sample", "mime": "text/html"},
    ]
    code_clear_output = 'import "nsysx/cell"\ncell.Clear(false)'
    code_page_something = "nsysx.Open?"

    code_history_pattern = "6 *"
    supported_history_operations = ("tail", "range", "search")

    code_generate_error = 'panic("boom")'
    code_inspect_sample = "nsysx.Open"

    def test_nsysx_profile_cells(self):
        """A profile opened in one cell is used in the next ones."""
        if not PROFILE:
            raise unittest.SkipTest("NSYSX_PROFILE not set")
        self.flush_channels()
        reply, _ = self.execute_helper("r, err := nsysx.Open(%s)\nerr" % json.dumps(PROFILE))
        self.assertEqual(reply["content"]["status"], "ok")
        reply, out = self.execute_helper('r.Stats(ctx, "cuda_gpu_trace")')
        self.assertEqual(reply["content"]["status"], "ok")
        results = [m for m in out if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1)
        data = results[0]["content"]["data"]
        self.assertIn("CUDA GPU Trace", data["text/plain"])
        self.assertIn("<table", data["text/html"])
        self.assertIn("showing 50 of", data["text/html"])
        self.assertEqual(data["application/vnd.nsysx.result+json"]["report"], "cuda_gpu_trace")


if __name__ == "__main__":
    unittest.main()
