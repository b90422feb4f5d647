//go:build !linux

package e2e

import "syscall"

// dieWithUs: elsewhere than Linux, the server is stopped by the tests'
// cleanup alone.
func dieWithUs() *syscall.SysProcAttr { return nil }
