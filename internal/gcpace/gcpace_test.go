package gcpace

import (
	"runtime/debug"
	"testing"
)

// The collector runs at Percent, unless GOGC says otherwise.
func TestSet(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)

	Set(func(string) string { return "50" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, the pace became %d", got)
	}
	Set(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("without GOGC, the pace is %d, not %d", got, Percent)
	}
}
