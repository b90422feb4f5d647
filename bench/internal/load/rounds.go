package load

import (
	"fmt"
	"slices"
	"time"
)

// Rounds is how many times each server or path plays its share of the
// streams. A shared machine's busy moments last seconds and move every
// figure of a round alike: ratios are taken within each round, and the
// median round's shown with the spread over all of them.
const Rounds = 5

// MinStreams is the fewest streams a server may play over all rounds:
// /proc counts CPU in 10 ms ticks, too coarse for rounds under 1,000.
const MinStreams = Rounds * 1000

// Spread is the median of ratios, and their least and most.
func Spread(ratios []float64) string {
	return fmt.Sprintf("%.2fx (%.2f to %.2f)", Median(ratios), slices.Min(ratios), slices.Max(ratios))
}

// Median is the middle of v (the upper of two middles).
func Median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

// Micros is d in microseconds.
func Micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// Millis is d in milliseconds.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
