package main

import (
	"runtime/debug"
	"testing"
)

// The collector runs at gcPercent, unless GOGC says otherwise.
func TestPaceGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)

	paceGC(func(string) string { return "50" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, the pace became %d", got)
	}
	paceGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC, the pace is %d, not %d", got, gcPercent)
	}
}
