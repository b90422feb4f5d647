package page

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// The list's rules: a run's news may arrive twice (the live feed and a
// fresh list), or late (the feed and a list read cross on the wire), so a
// run is only ever replaced by news at least as new.

// fresher reports whether b is at least as far along as a: never fewer
// events, never back from an ending to running.
func fresher(a, b runs.Run) bool {
	if b.Events != a.Events {
		return b.Events > a.Events
	}
	return !(a.Status != runs.Running && b.Status == runs.Running)
}

// merge takes what b says of a run unless it is older than a; a link once
// made stays.
func merge(a, b runs.Run) runs.Run {
	if !fresher(a, b) {
		b = a
	}
	if b.ResumedBy == "" {
		b.ResumedBy = a.ResumedBy
	}
	if b.Resumes == "" {
		b.Resumes = a.Resumes
	}
	return b
}

// order is a run id's place: ids count up from 1.
func order(id string) int {
	n, err := strconv.Atoi(id)
	if err != nil {
		return 0
	}
	return n
}

// withRun is the list with r added or brought up to date, newest first.
func withRun(list []runs.Run, r runs.Run) []runs.Run {
	out := slices.Clone(list)
	if i := slices.IndexFunc(out, func(x runs.Run) bool { return x.ID == r.ID }); i >= 0 {
		out[i] = merge(out[i], r)
		return out
	}
	i, _ := slices.BinarySearchFunc(out, r, func(x, r runs.Run) int { return order(r.ID) - order(x.ID) })
	return slices.Insert(out, i, r)
}

// withoutRun is the list less one run.
func withoutRun(list []runs.Run, id string) []runs.Run {
	return slices.DeleteFunc(slices.Clone(list), func(x runs.Run) bool { return x.ID == id })
}

// relisted is a fresh list as read, with what the page knows that is
// newer: a run the list has is merged with the page's; a run only the page
// has stays if it came after the list was made (its id is higher), and is
// gone otherwise.
func relisted(have, read []runs.Run) []runs.Run {
	newest := 0
	for _, r := range read {
		newest = max(newest, order(r.ID))
	}
	byID := map[string]runs.Run{}
	for _, r := range have {
		byID[r.ID] = r
	}
	out := make([]runs.Run, 0, len(read))
	for _, r := range read {
		if old, ok := byID[r.ID]; ok {
			r = merge(old, r)
		}
		out = append(out, r)
	}
	for _, r := range have {
		if order(r.ID) > newest {
			out = withRun(out, r)
		}
	}
	return out
}

// Thread is the runs of one thread, the newest first; the threads are in
// the order of their newest runs.
type Thread struct {
	ID   string // "" for runs that name none
	Runs []runs.Run
}

// Threads groups a list of runs (newest first) by thread. Runs that name
// no thread stand alone.
func Threads(list []runs.Run) []Thread {
	var out []Thread
	at := map[string]int{}
	for _, r := range list {
		if i, ok := at[r.ThreadID]; ok && r.ThreadID != "" {
			out[i].Runs = append(out[i].Runs, r)
			continue
		}
		at[r.ThreadID] = len(out)
		out = append(out, Thread{ID: r.ThreadID, Runs: []runs.Run{r}})
	}
	return out
}

// Verdict is a run's standing in words, as the list and the run's header
// say it.
func Verdict(r runs.Run) string {
	switch r.Status {
	case runs.Running:
		return "running"
	case runs.OK:
		return "ok"
	case runs.Warned:
		return fmt.Sprintf("ok, %s", count(r.Warnings, "warning"))
	case runs.Failed:
		if r.Rule != "" {
			return "failed: " + r.Rule
		}
		return "failed"
	case runs.Interrupted:
		return "interrupted: waits for an answer"
	case runs.Cancelled:
		return "cancelled by the client"
	case runs.Errored:
		return "errored: the agent reported an error"
	}
	return string(r.Status)
}

// count is n things, in words: "1 warning", "3 warnings".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
