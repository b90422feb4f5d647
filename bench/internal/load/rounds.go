package load

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Rounds is how many times each server or path plays its share of the
// streams. Ratios are taken within each round, and the median round's
// shown with the spread over all of them.
const Rounds = 5

// Turn is how many streams a path plays before the next path's turn, in a
// Round: a fifth of a second or so. A shared machine's busy moments last
// longer; played in turns, the paths of a round meet them alike.
const Turn = 2000

// MinStreams is the fewest streams a server may play over all rounds:
// a turn each round.
const MinStreams = Rounds * Turn

// A Path is where streams are played, and the processes whose CPU a
// stream there costs.
type Path struct {
	URL   string
	Procs []*Process
}

// Round plays n streams along each path, c at a time on c kept-alive
// connections of the path's own, in turns of Turn streams, path after
// path, in the order Order gives each turn. A path's Result is its turns'
// together: its processes' CPU over them, per stream; its streams per
// second while it played; its times to first byte.
func Round(c, n int, paths ...Path) ([]Result, error) {
	clients := make([]*http.Client, len(paths))
	for i := range paths {
		clients[i] = newClient(c)
		defer clients[i].CloseIdleConnections()
	}
	results := make([]Result, len(paths))
	for turn := 0; turn*Turn < n; turn++ {
		k := min(Turn, n-turn*Turn)
		for _, i := range Order(turn, len(paths)) {
			r, err := play(clients[i], paths[i].URL, c, k, paths[i].Procs)
			if err != nil {
				return nil, err
			}
			sum := &results[i]
			if sum.CPU == nil {
				sum.CPU = make([]time.Duration, len(r.CPU))
			}
			for j, cpu := range r.CPU {
				sum.CPU[j] += cpu
			}
			sum.Streams += r.Streams
			sum.Elapsed += r.Elapsed
			sum.TTFB = append(sum.TTFB, r.TTFB...)
		}
	}
	for i := range results {
		results[i].finish()
	}
	return results, nil
}

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
