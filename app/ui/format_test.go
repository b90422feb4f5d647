package ui

import (
	"testing"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 7: "7", 145: "145", 1200: "1,200", 1234567: "1,234,567", 410.5: "410.5", -1200: "-1,200", 999.25: "999.25",
	} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestChange(t *testing.T) {
	api := core.Service{ID: "api", Volume: 1200, Latency: 60}
	tests := []struct {
		now  core.Service
		base bool
		want string
	}{
		{core.Service{Volume: 1200, Latency: 145}, true, "p95 +85 ms (+142%)"},
		{core.Service{Volume: 1200, Latency: 60}, true, "unchanged"},
		{core.Service{Volume: 1000, Latency: 30}, true, "p95 −30 ms (−50%), volume −200 rpm (−17%)"},
		{core.Service{Volume: 410, Latency: 71}, false, "new, no baseline"},
	}
	for _, tt := range tests {
		if got := change(tt.now, api, tt.base); got != tt.want {
			t.Errorf("change = %q, want %q", got, tt.want)
		}
	}
	if got := change(core.Service{Latency: 5}, core.Service{Latency: 0}, true); got != "p95 +5 ms" {
		t.Errorf("from zero: %q", got)
	}
	// From the least latency there is, the relative change is past any
	// number: it is left out, as from zero.
	if got := change(core.Service{Latency: 145}, core.Service{Latency: 5e-324}, true); got != "p95 +145 ms" {
		t.Errorf("from the least latency: %q", got)
	}
}

func TestFixed(t *testing.T) {
	if fixed(12.5) != "12.5" || fixed(3) != "3.0" {
		t.Error(fixed(12.5), fixed(3))
	}
}
