//go:build !wasm

package ui

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// A delta to one service of a crowd writes the markup of its group again
// and keeps every other group's: the browser parses groupSize marks, not a
// chunk's 64.
func TestADeltaRedrawsOneGroup(t *testing.T) {
	services := make([]core.Service, core.ChunkSize)
	for i := range services {
		services[i] = core.Service{ID: fmt.Sprintf("s%d", i), Name: "S", Series: core.CoreSeries, Volume: float64(10 * i), Latency: 50}
	}
	baseline := map[string]core.Service{}
	for _, s := range services {
		baseline[s.ID] = s
	}
	in := chunkInput{services: services, baseline: baseline, filter: core.All, area: chart.NewArea(600)}
	marks, bases := &markChunk{In: &in}, &baselineChunk{In: &in}
	marks.Render()
	bases.Render()
	before, basesBefore := slices.Clone(marks.groups), slices.Clone(bases.groups)

	moved := slices.Clone(services) // a delta copies its chunk
	moved[19].Latency = 150
	marks.In.services, bases.In.services = moved, moved
	marks.Render()
	bases.Render()
	for name, groups := range map[string][2][]group{"marks": {before, marks.groups}, "baselines": {basesBefore, bases.groups}} {
		var written []int
		for i := range groups[1] {
			if unsafe.StringData(groups[0][i].markup) != unsafe.StringData(groups[1][i].markup) {
				written = append(written, i)
			}
		}
		if !slices.Equal(written, []int{19 / groupSize}) {
			t.Errorf("%s: groups %v written again, want only %d", name, written, 19/groupSize)
		}
	}
	if bases.groups[2].markup == "" || bases.groups[0].markup != "" {
		t.Errorf("the baseline is drawn for the service that moved alone: %q", bases.groups[2].markup)
	}
}
