//go:build unix

package server_test

import (
	"syscall"
	"testing"
)

// raiseFileLimit lets the process hold need open files, or skips.
func raiseFileLimit(tb testing.TB, need int) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		tb.Skip("no file limit to read:", err)
	}
	if lim.Cur >= uint64(need) {
		return
	}
	lim.Cur = min(lim.Max, uint64(need))
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < uint64(need) {
		tb.Skipf("need %d open files, may have %d", need, lim.Cur)
	}
}
