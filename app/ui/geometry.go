package ui

import (
	core "github.com/agent-analysis/agent-analysis/app/core"
)

// The chart's fixed frame, in SVG user units. The SVG scales to its
// container through its viewBox; these numbers only fix proportions.
const (
	chartWidth  = 640
	chartHeight = 380
	marginLeft  = 72
	marginRight = 32
	marginTop   = 16
	marginBot   = 52
)

// Fixed domains, so that runs compare at a glance.
var (
	volumeDomain  = Domain{Min: 0, Max: 1500, Step: 300} // requests per minute
	latencyDomain = Domain{Min: 0, Max: 200, Step: 50}   // p95, milliseconds
)

// BudgetMs is the illustrative p95 budget line. It is not an SLO.
const BudgetMs = 100

// Domain is a closed range of data values with a tick step.
type Domain struct{ Min, Max, Step float64 }

// Ticks are Min, Min+Step, ... up to Max.
func (d Domain) Ticks() []float64 {
	var out []float64
	for i := 0; ; i++ {
		v := d.Min + float64(i)*d.Step
		if v > d.Max+d.Step/1e6 {
			return out
		}
		out = append(out, v)
	}
}

// Scale maps a Domain onto a pixel range; values outside are clamped to
// the edge, so a mark never leaves the plot.
type Scale struct {
	Domain Domain
	From   float64 // pixel of Domain.Min
	To     float64 // pixel of Domain.Max
}

// Px is the pixel of v.
func (s Scale) Px(v float64) float64 {
	v = min(max(v, s.Domain.Min), s.Domain.Max)
	return s.From + (v-s.Domain.Min)/(s.Domain.Max-s.Domain.Min)*(s.To-s.From)
}

// Clamped reports whether v lies outside the domain.
func (s Scale) Clamped(v float64) bool { return v < s.Domain.Min || v > s.Domain.Max }

var (
	xScale = Scale{Domain: volumeDomain, From: marginLeft, To: chartWidth - marginRight}
	yScale = Scale{Domain: latencyDomain, From: chartHeight - marginBot, To: marginTop}
)

// Mark is one visible service, placed.
type Mark struct {
	Service  core.Service
	X, Y     float64
	Baseline *Point // where the service was at the run's baseline, if it moved
	Selected bool
	OffScale bool // a value lies outside the fixed domains and was clamped
}

// Point is a position in SVG user units.
type Point struct{ X, Y float64 }

// Marks places every visible service of the model.
func Marks(m core.Model) []Mark {
	visible := m.Visible()
	out := make([]Mark, len(visible))
	for i, s := range visible {
		mark := Mark{
			Service:  s,
			X:        xScale.Px(s.Volume),
			Y:        yScale.Px(s.Latency),
			Selected: s.ID == m.Selected,
			OffScale: xScale.Clamped(s.Volume) || yScale.Clamped(s.Latency),
		}
		if b, ok := m.BaselineOf(s.ID); ok && (b.Volume != s.Volume || b.Latency != s.Latency) {
			mark.Baseline = &Point{X: xScale.Px(b.Volume), Y: yScale.Px(b.Latency)}
		}
		out[i] = mark
	}
	return out
}
