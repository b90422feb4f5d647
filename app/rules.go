package app

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// checkByHand enforces the Wire's field rules (its validate tags) with
// plain code, and words each failure as validation.Explain words the
// validator's. The browser build uses it: validator/v10 would add about
// 8.7 MB to app.wasm (1.2 MB gzip) and cost far more per delta.
// TestRuleParity runs one table of cases through both.
func checkByHand(w Wire) error {
	if w.Services == nil {
		return fieldError{"services: is required"}
	}
	var reasons []string
	for i, s := range w.Services {
		at := fmt.Sprintf("services[%d].", i)
		if r := text(s.ID, 64); r != "" {
			reasons = append(reasons, at+"id: "+r)
		}
		if r := text(s.Name, 64); r != "" {
			reasons = append(reasons, at+"name: "+r)
		}
		if s.Series != Core && s.Series != Platform {
			reasons = append(reasons, fmt.Sprintf("%sseries: must be one of Core, Platform, got %q", at, s.Series))
		}
		if r := measure(s.Volume); r != "" {
			reasons = append(reasons, at+"volume: "+r)
		}
		if r := measure(s.Latency); r != "" {
			reasons = append(reasons, at+"latency: "+r)
		}
	}
	if len(reasons) > 0 {
		return fieldError{strings.Join(reasons, "; ")}
	}
	return nil
}

// text is "required,notblank,max=n".
func text(s string, n int) string {
	switch {
	case s == "":
		return "is required"
	case strings.Trim(strings.TrimSpace(s), "\x1c\x1d\x1e\x1f") == "":
		return "must not be blank"
	case utf8.RuneCountInString(s) > n:
		return fmt.Sprintf("must be at most %d characters", n)
	}
	return ""
}

// measure is "finite,gte=0".
func measure(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "must be a finite number"
	case v < 0:
		return "must be at least 0"
	}
	return ""
}

type fieldError struct{ reasons string }

func (e fieldError) Error() string { return e.reasons }
