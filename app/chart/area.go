// Package chart is the scatter chart's geometry, apart from any drawing:
// the area for a box's width, the scales, each service's mark, and where
// text goes so that nothing collides. It is pure and tested natively; the
// ui package draws what it decides.
package chart

import (
	"math"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

// Fixed domains, so that runs compare at a glance.
var (
	volumeDomain  = Domain{Min: 0, Max: 1500, Step: 300} // requests per minute
	latencyDomain = Domain{Min: 0, Max: 200, Step: 50}   // p95, milliseconds
)

// BudgetMs is the illustrative p95 budget line. It is not an SLO.
const BudgetMs = 100

// Text sizes in the chart, in CSS pixels: the chart is drawn at the size
// it is shown, so these are what a reader sees.
const (
	TickSize   = 12
	AxisSize   = 13
	labelSize  = 13 // a mark's name, bold
	budgetSize = 12
	emptySize  = 14
)

// The chart's widths, in CSS pixels.
const (
	defaultWidth = 640 // until the browser has measured (the server's prerender)
	minWidth     = 240
	maxWidth     = 1200
	compactBelow = 520 // narrower areas are shorter and tick every 500 rpm
)

// The chart's heights, in CSS pixels.
const (
	fullHeight    = 400
	compactHeight = 300
)

// Area is the chart's drawing area for one width, in CSS pixels. The SVG's
// viewBox is the width of the box it sits in, measured in the browser, so
// nothing is scaled: 12 px text is 12 px on a phone and on a desktop.
type Area struct {
	Width, Height float64
	X, Y          Scale
}

// NewArea lays the chart out for a box this wide.
func NewArea(width float64) Area {
	if !(width > 0) { // NaN too: nothing measured
		width = defaultWidth
	}
	w := math.Floor(min(max(width, minWidth), maxWidth))
	height, left, xDomain := float64(fullHeight), 64.0, volumeDomain
	if w < compactBelow {
		height, left, xDomain.Step = compactHeight, 52, 500
	}
	const top, right, bottom = 14, 24, 44
	return Area{
		Width: w, Height: height,
		X: Scale{Domain: xDomain, From: left, To: w - right},
		Y: Scale{Domain: latencyDomain, From: height - bottom, To: top},
	}
}

// Plot is the area inside the axes, where marks and their labels go.
func (a Area) Plot() Box { return Box{X0: a.X.From, Y0: a.Y.To, X1: a.X.To, Y1: a.Y.From} }

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
func Marks(m core.Model, a Area) []Mark {
	visible := m.Visible()
	out := make([]Mark, len(visible))
	for i, s := range visible {
		base, hasBase := m.BaselineOf(s.ID)
		out[i] = Place(s, base, hasBase, s.ID == m.Selected, a)
	}
	return out
}

// Place is one service's mark, with its baseline when it has one and
// moved from it.
func Place(s, base core.Service, hasBase, selected bool, a Area) Mark {
	mark := Mark{
		Service:  s,
		X:        a.X.Px(s.Volume),
		Y:        a.Y.Px(s.Latency),
		Selected: selected,
		OffScale: a.X.Clamped(s.Volume) || a.Y.Clamped(s.Latency),
	}
	if hasBase && (base.Volume != s.Volume || base.Latency != s.Latency) {
		mark.Baseline = &Point{X: a.X.Px(base.Volume), Y: a.Y.Px(base.Latency)}
	}
	return mark
}

// Radii of the drawn symbols, in SVG user units.
const (
	MarkRadius     = 7
	BaselineRadius = 6
	RingRadius     = 14
)

// reach is how far a mark's drawing extends from its centre: the selection
// ring, or the symbol (a Platform diamond reaches 1.25 r) and its stroke.
func (mk Mark) reach() float64 {
	switch {
	case mk.Selected:
		return RingRadius + 1.5
	case mk.Service.Series == core.PlatformSeries:
		return MarkRadius*1.25 + 1
	}
	return MarkRadius + 1
}
