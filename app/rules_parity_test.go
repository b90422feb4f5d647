//go:build !js

package app

import (
	"math"
	"strings"
	"testing"
)

// ruleCases is the shared table: each Wire must get the same verdict and
// the same words from validator/v10 (native builds) and from the browser's
// hand-written rules.
func ruleCases() map[string]Wire {
	ok := Service{ID: "api", Name: "API", Series: Core, Volume: 1200, Latency: 60}
	with := func(f func(*Service)) Wire {
		s := ok
		f(&s)
		return Wire{Services: []Service{ok, s}}
	}
	return map[string]Wire{
		"valid":               {Services: []Service{ok}},
		"empty list":          {Services: []Service{}},
		"nil list":            {},
		"zero service":        {Services: []Service{{}}},
		"blank id":            with(func(s *Service) { s.ID = " \t\n" }),
		"separator-only id":   with(func(s *Service) { s.ID = "\x1c\x1f" }),
		"64-rune id":          with(func(s *Service) { s.ID = strings.Repeat("é", 64) }),
		"65-rune id":          with(func(s *Service) { s.ID = strings.Repeat("é", 65) }),
		"long name":           with(func(s *Service) { s.Name = strings.Repeat("n", 65) }),
		"no series":           with(func(s *Service) { s.Series = "" }),
		"lowercase series":    with(func(s *Service) { s.Series = "core" }),
		"negative volume":     with(func(s *Service) { s.Volume = -1 }),
		"negative zero":       with(func(s *Service) { s.Volume = math.Copysign(0, -1) }),
		"tiny negative":       with(func(s *Service) { s.Latency = -math.SmallestNonzeroFloat64 }),
		"NaN latency":         with(func(s *Service) { s.Latency = math.NaN() }),
		"+Inf volume":         with(func(s *Service) { s.Volume = math.Inf(1) }),
		"-Inf latency":        with(func(s *Service) { s.Latency = math.Inf(-1) }),
		"max float":           with(func(s *Service) { s.Volume = math.MaxFloat64 }),
		"every field at once": with(func(s *Service) { *s = Service{ID: "", Name: " ", Series: "Edge", Volume: -2, Latency: math.NaN()} }),
	}
}

func TestRuleParity(t *testing.T) {
	for name, w := range ruleCases() {
		t.Run(name, func(t *testing.T) {
			assertSameVerdict(t, w)
		})
	}
}

// FuzzRuleParity compares the two on services built from fuzzed fields.
func FuzzRuleParity(f *testing.F) {
	f.Add("api", "API", "Core", 1.0, 2.0)
	f.Add("", " ", "Edge", -1.0, math.Inf(1))
	f.Add("\x1c", strings.Repeat("x", 70), "Platform", math.NaN(), -0.0)
	f.Fuzz(func(t *testing.T, id, name, series string, volume, latency float64) {
		assertSameVerdict(t, Wire{Services: []Service{{ID: id, Name: name, Series: Series(series), Volume: volume, Latency: latency}}})
	})
}

func assertSameVerdict(t *testing.T, w Wire) {
	t.Helper()
	byValidator, byHand := checkFields(w), checkByHand(w)
	if (byValidator == nil) != (byHand == nil) || (byValidator != nil && byValidator.Error() != byHand.Error()) {
		t.Fatalf("validator/v10: %v\nby hand:       %v", byValidator, byHand)
	}
}
