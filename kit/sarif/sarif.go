// Package sarif writes findings as a SARIF 2.1.0 log (OASIS, the format
// GitHub code scanning and most CI dashboards read): one run of one tool,
// one result per finding, each rule described once with its help page.
// The proxy writes its violations with it (agent-analysis proxy -sarif);
// check can write its failures the same way: a Result per failure, the
// script's file and line, or the live URL, and the event.
package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// Version is the SARIF version written.
const Version = "2.1.0"

const schema = "https://json.schemastore.org/sarif-2.1.0.json"

// Tool is what found the results.
type Tool struct {
	Name           string // "agent-analysis proxy"
	InformationURI string // where the tool is described; "" for none
}

// Result is one finding.
type Result struct {
	RuleID  string // the rule's id: "after-finish", "truncated"
	HelpURI string // the rule's page (agui.Rule.URL()); "" for none
	Level   string // "error" when "", or "warning", "note"
	Message string
	URI     string // the URL, or the file (FileURI), the finding is in
	Line    int    // its line in the file, from 1; 0 for none (a live stream)
	Event   int    // the event it is at, from 1; 0 for none
}

// FileURI is a file's path as a SARIF artifact's URI, which must be a URI
// reference: slashes forward, escaped where a URI must be ("a b.json" is
// "a%20b.json"), and a path on a Windows volume a file: URI
// ("file:///C:/runs/a.json").
func FileURI(path string) string {
	p := filepath.ToSlash(path)
	if filepath.VolumeName(path) != "" {
		return (&url.URL{Scheme: "file", Path: "/" + p}).String()
	}
	if strings.HasPrefix(p, "//") {
		p = "/" + strings.TrimLeft(p, "/") // "//tmp/x" would name host "tmp"
	}
	return (&url.URL{Path: p}).String() // "a:b.json" is "./a:b.json", not a scheme
}

// Write writes results as one SARIF log.
func Write(w io.Writer, tool Tool, results []Result) error {
	type rule struct {
		ID      string `json:"id"`
		HelpURI string `json:"helpUri,omitempty"`
	}
	type location struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region *struct {
				StartLine int `json:"startLine"`
			} `json:"region,omitempty"`
		} `json:"physicalLocation"`
		LogicalLocations []map[string]string `json:"logicalLocations,omitempty"`
	}
	type result struct {
		RuleID     string            `json:"ruleId"`
		RuleIndex  int               `json:"ruleIndex"`
		Level      string            `json:"level"`
		Message    map[string]string `json:"message"`
		Locations  []location        `json:"locations,omitempty"`
		Properties map[string]int    `json:"properties,omitempty"`
	}
	var rules []rule
	index := map[string]int{}
	out := make([]result, 0, len(results))
	for _, r := range results {
		i, ok := index[r.RuleID]
		if !ok {
			i = len(rules)
			index[r.RuleID] = i
			rules = append(rules, rule{ID: r.RuleID, HelpURI: r.HelpURI})
		}
		level := r.Level
		if level == "" {
			level = "error"
		}
		res := result{RuleID: r.RuleID, RuleIndex: i, Level: level, Message: map[string]string{"text": r.Message}}
		if r.URI != "" {
			var loc location
			loc.PhysicalLocation.ArtifactLocation.URI = r.URI
			if r.Line > 0 {
				loc.PhysicalLocation.Region = &struct {
					StartLine int `json:"startLine"`
				}{r.Line}
			}
			if r.Event > 0 {
				loc.LogicalLocations = []map[string]string{{"name": fmt.Sprintf("event %d", r.Event), "kind": "element"}}
			}
			res.Locations = []location{loc}
		}
		if r.Event > 0 {
			res.Properties = map[string]int{"event": r.Event}
		}
		out = append(out, res)
	}
	driver := map[string]any{"name": tool.Name, "rules": rules}
	if tool.InformationURI != "" {
		driver["informationUri"] = tool.InformationURI
	}
	if rules == nil {
		driver["rules"] = []rule{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{
		"$schema": schema,
		"version": Version,
		"runs":    []any{map[string]any{"tool": map[string]any{"driver": driver}, "results": out}},
	})
}
