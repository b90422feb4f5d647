// Package catalogue is what the demo's Scenario select offers: each
// script's name, group and what it exercises, without its events. The
// server, which holds the scripts, hands it to the page, so that the wasm
// carries no scripts and lists the ones a server loads from files too.
package catalogue

import (
	"encoding/json"
	"fmt"
)

// Group is what AG-UI 1.0 says of a script, or where it came from.
type Group string

const (
	Demo  Group = "demo"  // the demo's own scenarios: normal, invalid, slow, approval
	Fatal Group = "fatal" // a conforming consumer MUST reject the stream (or the run cannot succeed)
	Warn  Group = "warn"  // it warns and goes on, or MAY fail the run
	Legal Group = "legal" // valid AG-UI 1.0: nothing to warn about
	File  Group = "file"  // loaded from a file the server was given
)

// Groups lists the groups in the order the demo offers them.
var Groups = []Group{Demo, Fatal, Warn, Legal, File}

// Entry is one script as the select offers it.
type Entry struct {
	Name        string   `json:"name"`
	Group       Group    `json:"group"`
	Description string   `json:"description"`
	Rule        Citation `json:"rule,omitzero"`
	Must        string   `json:"must,omitempty"` // what a conforming consumer must do
	ThisDemo    string   `json:"demo,omitempty"` // what this demo does
}

// Citation is where AG-UI 1.0 states the rule a script exercises, and a
// few of its words.
type Citation struct {
	Page  string `json:"page"`
	Quote string `json:"quote"`
}

// Catalogue is the entries in the order they are offered.
type Catalogue []Entry

// Lookup returns the entry named name.
func (c Catalogue) Lookup(name string) (Entry, bool) {
	for _, e := range c {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// In lists the entries of one group, in order.
func (c Catalogue) In(g Group) Catalogue {
	var out Catalogue
	for _, e := range c {
		if e.Group == g {
			out = append(out, e)
		}
	}
	return out
}

// Encode is the catalogue as the page receives it.
func (c Catalogue) Encode() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return string(b)
}

// Decode reads what Encode wrote.
func Decode(s string) (Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return nil, fmt.Errorf("the scenario catalogue: %w", err)
	}
	return c, nil
}
