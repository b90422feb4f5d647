package e2e

import "syscall"

// dieWithUs: the server is killed when the test process dies, so it never
// outlives the tests.
func dieWithUs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
