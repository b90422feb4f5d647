package e2e

import (
	"slices"
	"testing"
	"time"
)

// 1. The page loads idle, with the chart, and fits the phone.
func TestHydration(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		if s := p.status(); s != "Idle" {
			t.Errorf("status %q", s)
		}
		if !eval[bool](p, `!!document.querySelector('svg[role=img][aria-label]')`) {
			t.Error("no labelled chart")
		}
		if p.disabled("Run") || !p.disabled("Cancel") || !p.disabled("Recover") {
			t.Errorf("Run disabled %v, Cancel %v, Recover %v", p.disabled("Run"), p.disabled("Cancel"), p.disabled("Recover"))
		}
		if got := p.accepted(); got != "Accepted updates: 0" {
			t.Errorf("%q", got)
		}
		if o := p.overflow(); o > 0 {
			t.Errorf("document overflows the %d px viewport by %d px", p.vp.width, o)
		}
		if n := len(serverLog.streams(p.thread())); n != 0 {
			t.Errorf("loading started %d runs", n)
		}
	})
}

// 2. A normal run streams to completion with the spike against the baseline.
func TestNormalRun(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		p.click("Run")
		p.waitStatus("Streaming", 5*time.Second)
		p.waitStatus("Completed", 5*time.Second)
		if got := p.accepted(); got != "Accepted updates: 4" {
			t.Errorf("%q", got)
		}
		if got := p.rows(); !slices.Equal(got, []string{"auth", "api", "checkout", "search"}) {
			t.Errorf("rows %v", got)
		}
		if got := p.marks(); len(got) != 4 {
			t.Errorf("marks %v", got)
		}
		_ = time.Second
	})
}
