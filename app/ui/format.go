package ui

import (
	"math"
	"strconv"
	"strings"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

// num formats a measurement: thousands grouped, no needless decimals.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// signed formats a difference with its sign: "+85", "−12" (a true minus).
func signed(v float64) string {
	if v < 0 {
		return "−" + num(-v)
	}
	return "+" + num(v)
}

// difference is "+85 ms (+142%)": the change, and the relative change
// when the base allows one: not zero, nor so near it that the percentage
// is past any integer (from the least latency there is, 5e-324, it is
// infinite).
func difference(from, to float64, unit string) string {
	d := signed(to-from) + " " + unit
	if from == 0 {
		return d
	}
	if p := math.Round((to - from) / from * 100); p != 0 && math.Abs(p) < math.MaxInt64 {
		d += " (" + signed(p) + "%)"
	}
	return d
}

// change describes a service against its baseline, for the table.
func change(s core.Service, b core.Service, hasBaseline bool) string {
	if !hasBaseline {
		return "new, no baseline"
	}
	var parts []string
	if s.Latency != b.Latency {
		parts = append(parts, "p95 "+difference(b.Latency, s.Latency, "ms"))
	}
	if s.Volume != b.Volume {
		parts = append(parts, "volume "+difference(b.Volume, s.Volume, "rpm"))
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	return strings.Join(parts, ", ")
}

// fixed formats an SVG coordinate: go-app would print floats as "12.5000".
func fixed(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
