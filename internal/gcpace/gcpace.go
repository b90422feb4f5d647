// Package gcpace sets the garbage collector's pace of agent-analysis
// serve, and of the floor bench/ measures it against (net/http alone), so
// that both run alike.
package gcpace

import "runtime/debug"

// Percent is the collector's pace (GOGC) unless the environment sets one:
// the live heap is smaller than the least heap the collector waits for,
// which grows with GOGC, so the pace sets how often it runs. The guide's
// server section ("Memory") has how often, and what each pace costs.
const Percent = 400

// Set sets the collector's pace, unless GOGC (read with getenv) does.
func Set(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
