// Package gcpace sets the garbage collector's pace of agent-analysis
// serve, and of the floor bench/ measures it against (net/http alone), so
// that both run alike.
package gcpace

import "runtime/debug"

// Percent is the collector's pace (GOGC) unless the environment sets one:
// a stream leaves some kilobytes of garbage against a live heap of a few
// megabytes, so at Go's default of 100 the collector runs every few
// hundred streams. At 400 the heap may grow to five times what is live
// before the next collection; the guide's server section has what each
// costs.
const Percent = 400

// Set sets the collector's pace, unless GOGC (read with getenv) does.
func Set(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
