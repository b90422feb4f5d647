package ui

import (
	"slices"
	"testing"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

func TestTicks(t *testing.T) {
	if got := volumeDomain.Ticks(); !slices.Equal(got, []float64{0, 300, 600, 900, 1200, 1500}) {
		t.Errorf("volume ticks %v", got)
	}
	if got := latencyDomain.Ticks(); !slices.Equal(got, []float64{0, 50, 100, 150, 200}) {
		t.Errorf("latency ticks %v", got)
	}
	if got := (Domain{Min: 0, Max: 1, Step: 0.1}).Ticks(); len(got) != 11 {
		t.Errorf("float steps lose the last tick: %v", got)
	}
}

func TestScales(t *testing.T) {
	tests := []struct {
		scale   Scale
		v, want float64
		clamped bool
	}{
		{xScale, 0, marginLeft, false},
		{xScale, 1500, chartWidth - marginRight, false},
		{xScale, 750, (marginLeft + chartWidth - marginRight) / 2.0, false},
		{xScale, 9000, chartWidth - marginRight, true},
		{xScale, -5, marginLeft, true},
		{yScale, 0, chartHeight - marginBot, false}, // y grows downwards
		{yScale, 200, marginTop, false},
		{yScale, 100, (chartHeight - marginBot + marginTop) / 2.0, false},
		{yScale, 999, marginTop, true},
	}
	for _, tt := range tests {
		if got := tt.scale.Px(tt.v); got != tt.want || tt.scale.Clamped(tt.v) != tt.clamped {
			t.Errorf("Px(%v) = %v (clamped %v), want %v (%v)", tt.v, got, tt.scale.Clamped(tt.v), tt.want, tt.clamped)
		}
	}
}

func TestMarks(t *testing.T) {
	w := core.NewWire([]core.Service{
		{ID: "auth", Name: "Auth", Series: core.Platform, Volume: 900, Latency: 35},
		{ID: "api", Name: "API", Series: core.Core, Volume: 1200, Latency: 145},
		{ID: "search", Name: "Search", Series: core.Platform, Volume: 410, Latency: 71},
		{ID: "hot", Name: "Hot", Series: core.Core, Volume: 10, Latency: 999},
	})
	m := core.NewModel("t")
	m.Wire = &w
	m.Baseline = map[string]core.Service{
		"auth": {ID: "auth", Volume: 900, Latency: 35},
		"api":  {ID: "api", Volume: 1200, Latency: 60},
	}
	m.Selected = "api"

	marks := Marks(m)
	if len(marks) != 4 || marks[0].Service.ID != "auth" || marks[1].Service.ID != "api" {
		t.Fatalf("marks follow the Wire's order: %+v", marks)
	}
	if marks[0].Baseline != nil {
		t.Error("an unchanged service has a baseline mark")
	}
	if b := marks[1].Baseline; b == nil || b.X != marks[1].X || b.Y != yScale.Px(60) {
		t.Errorf("API's baseline mark %+v", b)
	}
	if marks[2].Baseline != nil {
		t.Error("an added service has a baseline")
	}
	if !marks[1].Selected || marks[0].Selected {
		t.Error("selection")
	}
	if !marks[3].OffScale || marks[3].Y != marginTop {
		t.Errorf("999 ms must clamp to the top: %+v", marks[3])
	}

	m.Filter = core.OnlyPlatform
	if got := Marks(m); len(got) != 2 || got[0].Service.ID != "auth" || got[1].Service.ID != "search" {
		t.Errorf("filtered marks %+v", got)
	}
}
