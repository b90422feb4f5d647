package ui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// The visible rows are the services a filter admits, in order, whether
// found anew or reusing what was found of the arrays a delta left alone.
func TestVisibleRows(t *testing.T) {
	wire := func(n int) [][]core.Service {
		services := make([]core.Service, n)
		for i := range services {
			series := core.CoreSeries
			if i%3 == 0 {
				series = core.PlatformSeries
			}
			services[i] = core.Service{ID: fmt.Sprintf("s%d", i), Series: series}
		}
		return core.NewWire(services).Chunks()
	}
	want := func(chunks [][]core.Service, f core.Filter) []string {
		var ids []string
		for _, chunk := range chunks {
			for _, s := range chunk {
				if f.Admits(s) {
					ids = append(ids, s.ID)
				}
			}
		}
		return ids
	}
	got := func(v rows) []string {
		ids := []string{}
		for i := range v.Len() {
			ids = append(ids, v.At(i).ID)
			if v.Index(v.At(i).ID) != i {
				t.Fatalf("Index(%s) = %d, want %d", v.At(i).ID, v.Index(v.At(i).ID), i)
			}
		}
		return ids
	}
	for _, n := range []int{0, 5, core.ChunkSize, 3*core.ChunkSize + 7} {
		before := wire(n)
		after := slices.Clone(before) // a delta: one array copied, the Platform service made Core
		if n > core.ChunkSize {
			after[1] = slices.Clone(after[1])
			after[1][2].Series = core.CoreSeries
		}
		for _, f := range core.Filters {
			for _, last := range []rows{{}, visibleRows(before, f, rows{}), visibleRows(before, core.OnlyCore, rows{})} {
				v := visibleRows(after, f, last)
				if g, w := got(v), want(after, f); !slices.Equal(g, w) && len(g)+len(w) > 0 {
					t.Errorf("%d services, %s: %v, want %v", n, f, g, w)
				}
			}
		}
	}
	if i := visibleRows(wire(10), core.OnlyCore, rows{}).Index("s3"); i != -1 {
		t.Errorf("a hidden service is at %d", i)
	}
}
