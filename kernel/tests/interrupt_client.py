"""An interrupt stops a long cell and the next cell still sees earlier state.

Run by cmd/nsysx/kernel_test.go against the kernel installed in a temporary
prefix (JUPYTER_PATH); NSYSX_PROFILE names a SQLite export. Uses
jupyter_client's KernelManager as notebook frontends do: interrupt_mode is
"message", so interrupt_kernel() sends interrupt_request on control.
Prints "OK" and exits 0 when every check passes.
"""

import os
import sys
import time

from jupyter_client.manager import start_new_kernel

TIMEOUT = 60


def run(kc, code, timeout=TIMEOUT):
    """Executes code; returns (reply content, iopub messages)."""
    msg_id = kc.execute(code)
    return wait(kc, msg_id, timeout)


def wait(kc, msg_id, timeout=TIMEOUT):
    deadline = time.time() + timeout
    reply, outputs, idle = None, [], False
    while reply is None or not idle:
        left = deadline - time.time()
        if left <= 0:
            raise TimeoutError("no reply to %s" % msg_id)
        if reply is None:
            try:
                m = kc.get_shell_msg(timeout=min(left, 0.1))
                if m["parent_header"].get("msg_id") == msg_id:
                    reply = m["content"]
            except Exception:
                pass
        try:
            m = kc.get_iopub_msg(timeout=min(left, 0.1))
        except Exception:
            continue
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            idle = True
        else:
            outputs.append(m)
    return reply, outputs


def result_text(outputs):
    for m in outputs:
        if m["msg_type"] == "execute_result":
            return m["content"]["data"]["text/plain"]
    return None


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def main():
    profile = os.environ.get("NSYSX_PROFILE", "")
    km, kc = start_new_kernel(kernel_name="nsysx", startup_timeout=TIMEOUT)
    try:
        reply, _ = run(kc, "before := 41\nn := 0")
        check(reply["status"] == "ok", "setup: %r" % reply)
        longs = ["for {\n\tn++\n}"]
        if profile:
            # a long magic: the same report many times, with a progress line
            longs.append("%nsys stats -r " + ",".join(["nvtx_kern_sum", "nvtx_gpu_proj_trace"] * 1000) + " " + profile)
        for code in longs:
            msg_id = kc.execute(code)
            time.sleep(1.5)
            t0 = time.time()
            km.interrupt_kernel()
            reply, outputs = wait(kc, msg_id)
            took = time.time() - t0
            check(reply["status"] == "error" and reply["ename"] == "Interrupted",
                  "%.30r: reply %r" % (code, reply))
            check(took < 5, "%.30r: interrupt took %.1fs" % (code, took))
            print("%.30r interrupted in %.2fs" % (code, took))
            reply, outputs = run(kc, "before + 1")
            check(reply["status"] == "ok" and result_text(outputs) == "42",
                  "state after the interrupt: %r %r" % (reply, outputs))
        reply, outputs = run(kc, "n > 0")
        check(result_text(outputs) == "true", "the loop ran: %r" % outputs)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    print("OK")


if __name__ == "__main__":
    main()
