package core

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Wire's rules, in one place: the browser and native builds run this
// same code. Every failure is worded "services[i].field: reason".
const (
	maxText     = 64    // characters in an id or a name
	MaxServices = 10000 // services a state may hold: no agent can make the page do unbounded work
)

// Validate checks every rule of the Wire: each service's fields, then
// unique ids.
func (w Wire) Validate() error { return checkRules(w.Services()) }

// checkRules reports every broken field, or else the first repeated id.
func checkRules(services []Service) error {
	if err := checkFields(services); err != nil {
		return err
	}
	return firstDuplicate(services)
}

// checkFields reports every broken field of every service.
func checkFields(services []Service) error {
	var reasons []string
	for i, s := range services {
		reasons = appendServiceReasons(reasons, i, s)
	}
	if len(reasons) > 0 {
		return ruleError(strings.Join(reasons, "; "))
	}
	return nil
}

// appendServiceReasons adds one reason per broken field of services[i].
func appendServiceReasons(reasons []string, i int, s Service) []string {
	at := func(field, reason string) string { return fmt.Sprintf("services[%d].%s: %s", i, field, reason) }
	if r := text(s.ID); r != "" {
		reasons = append(reasons, at("id", r))
	}
	if r := text(s.Name); r != "" {
		reasons = append(reasons, at("name", r))
	}
	if s.Series != CoreSeries && s.Series != PlatformSeries {
		reasons = append(reasons, at("series", fmt.Sprintf("must be one of Core, Platform, got %q", Clip(string(s.Series)))))
	}
	if r := measure(s.Volume); r != "" {
		reasons = append(reasons, at("volume", r))
	}
	if r := measure(s.Latency); r != "" {
		reasons = append(reasons, at("latency", r))
	}
	return reasons
}

// text: present, not blank, at most maxText characters.
func text(s string) string {
	switch {
	case s == "":
		return "is required"
	case strings.TrimFunc(s, isBlank) == "":
		return "must not be blank"
	case utf8.RuneCountInString(s) > maxText:
		return fmt.Sprintf("must be at most %d characters", maxText)
	}
	return ""
}

// isBlank is white space or an ASCII separator control (FS, GS, RS, US).
func isBlank(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// measure: a finite number, not negative.
func measure(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "must be a finite number"
	case v < 0:
		return "must be at least 0"
	}
	return ""
}

// firstDuplicate reports the first service, in list order, whose id an
// earlier one has.
func firstDuplicate(services []Service) error {
	seen := make(map[string]int, len(services))
	for i, s := range services {
		if first, dup := seen[s.ID]; dup {
			return duplicateError(i, first, s.ID)
		}
		seen[s.ID] = i
	}
	return nil
}

func duplicateError(at, first int, id string) error {
	return ruleError(fmt.Sprintf("services[%d].id: %q duplicates services[%d]", at, Clip(id), first))
}

// ruleError is a broken rule of the Wire, worded for people.
type ruleError string

func (e ruleError) Error() string { return string(e) }
