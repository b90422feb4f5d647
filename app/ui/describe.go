package ui

import (
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// maxDescribed is how many changes the chart's text alternative spells
// out; a crowd's others are counted, and the table lists them all.
const maxDescribed = 8

// describeChart is the chart's text alternative: what it shows, and each
// service that moved against the baseline or stands above the budget, the
// first few by name and the others counted. Each chunk's part is kept
// while the chunk is the same array: a delta describes one chunk anew.
func (c *chartView) describeChart(visible rows) string {
	if !c.HasData {
		return "Scatter chart of p95 latency against request volume; no data yet"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scatter chart of p95 latency (ms) against request volume (requests/min): %d services shown, %s",
		visible.Len(), filterPhrase(c.Filter))
	parts := make([]chunkDescription, len(c.Chunks))
	described, more := 0, 0
	for i, chunk := range c.Chunks {
		if i < len(c.descriptions) && c.descriptions[i].same(chunk, c.Baseline, c.Filter) {
			parts[i] = c.descriptions[i]
		} else {
			parts[i] = describeChunk(chunk, c.Baseline, c.Filter)
		}
		for j := range parts[i].first {
			if described == maxDescribed {
				more++
				continue
			}
			described++
			b.WriteString(". " + parts[i].words(j))
		}
		more += parts[i].count - len(parts[i].first)
	}
	c.descriptions = parts
	if more > 0 {
		fmt.Fprintf(&b, ". And %d more that moved or stand above the budget: the table lists every service", more)
	}
	return b.String()
}

// chunkDescription is what one chunk adds to the description.
type chunkDescription struct {
	services []core.Service
	baseline map[string]core.Service
	filter   core.Filter
	count    int      // notable services
	first    []int    // where the first maxDescribed of them are; only the chart's first few are worded
	worded   []string // first's words, each written the first time it is needed
}

// words is how the jth of first moved, in words: written once, while the
// chunk is the same array, and not at every delta to another chunk.
func (d *chunkDescription) words(j int) string {
	if d.worded == nil {
		d.worded = make([]string, len(d.first))
	}
	if d.worded[j] == "" {
		s := d.services[d.first[j]]
		base, hasBase := d.baseline[s.ID]
		d.worded[j] = describeChange(s, base, hasBase)
	}
	return d.worded[j]
}

func (d chunkDescription) same(services []core.Service, baseline map[string]core.Service, f core.Filter) bool {
	return sameArray(d.services, services) && sameMap(d.baseline, baseline) && d.filter == f
}

func describeChunk(services []core.Service, baseline map[string]core.Service, f core.Filter) chunkDescription {
	d := chunkDescription{services: services, baseline: baseline, filter: f}
	for i, s := range services {
		base, hasBase := baseline[s.ID]
		if !f.Admits(s) || !notable(s, base, hasBase) {
			continue
		}
		d.count++
		if len(d.first) < maxDescribed {
			d.first = append(d.first, i)
		}
	}
	return d
}

// notable: a service the description names.
func notable(s, base core.Service, hasBase bool) bool {
	return !hasBase || base.Latency != s.Latency || s.Latency > chart.BudgetMs
}

// describeChange says how a service moved against the baseline and where
// it stands to the budget: "API p95 60 -> 145 ms, above the 100 ms
// budget".
func describeChange(s, base core.Service, hasBase bool) string {
	over := s.Latency > chart.BudgetMs
	budget := fmt.Sprintf(", above the %d ms budget", chart.BudgetMs)
	if !over {
		budget = ""
		if hasBase && base.Latency > chart.BudgetMs {
			budget = fmt.Sprintf(", back under the %d ms budget", chart.BudgetMs)
		}
	}
	switch {
	case !hasBase:
		return fmt.Sprintf("%s p95 %s ms, new, no baseline%s", s.Name, num(s.Latency), budget)
	case base.Latency != s.Latency:
		return fmt.Sprintf("%s p95 %s -> %s ms%s", s.Name, num(base.Latency), num(s.Latency), budget)
	}
	return fmt.Sprintf("%s p95 %s ms%s", s.Name, num(s.Latency), budget)
}

func filterPhrase(f core.Filter) string {
	if f == core.All {
		return "all series"
	}
	return string(f) + " series only"
}
