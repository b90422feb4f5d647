package core

import (
	"fmt"
	"strconv"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

// Update is the whole behaviour of the demo: given a Model and a fact, the
// next Model and the effect to run. It does no I/O. "Rule N" below is rule
// N of the run lifecycle in docs/agent-analysis.md.
func Update(m Model, msg Msg) (Model, Cmd) {
	switch msg := msg.(type) {
	case ClickedRun:
		return startRun(m, msg.Scenario)
	case ClickedRecover:
		if _, failed := m.Lifecycle.(Failed); !failed {
			return m, nil
		}
		return startRun(m, "normal")
	case ClickedCancel:
		return stopRun(m, ByUser)
	case Navigated:
		if msg.To == Exited {
			return stopRun(m, RouteExit)
		}
		return m, nil
	case ClickedFilter:
		m.Filter = msg.Filter
		return reconcileSelection(m), nil
	case ClickedService:
		if m.Shows(msg.ID) {
			m.Selected = msg.ID
		}
		return m, nil
	case ReceivedEvent:
		if run, ok := activeRun(m, msg.Generation); ok {
			m, cmd, verdict := receive(m, run, msg)
			return recordFrame(m, msg, verdict), cmd
		}
		if msg.Generation == m.Generation && m.Generation > 0 {
			// Queued behind the run's end: shown, never applied.
			return recordFrame(m, msg, AfterTheEnd), nil
		}
	case StreamFailed:
		if run, ok := activeRun(m, msg.Generation); ok {
			return fail(m, run, msg.Kind, 4, msg.Reason)
		}
	case StreamClosed:
		if run, ok := activeRun(m, msg.Generation); ok {
			return fail(m, run, Transport, 6, "the stream ended before RUN_FINISHED")
		}
	}
	// Anything else, including every Msg of an inactive connection.
	return m, nil
}

// startRun (rules 1 and 5): a fresh run replaces any open one; the last
// valid data, filter and selection stay; per-run counters reset.
func startRun(m Model, scenario string) (Model, Cmd) {
	var cmds Sequence
	if old, ok := ActiveRun(m.Lifecycle); ok {
		cmds = append(cmds, AbortStream{old.Generation})
		m = logf(m, old.RunID, Warning, "replaced by a new run")
	}
	m.Generation++
	run := Run{
		Generation: m.Generation,
		ThreadID:   m.Thread,
		RunID:      "run-" + strconv.Itoa(int(m.Generation)),
		Scenario:   scenario,
	}
	m.Lifecycle = Connecting{run}
	m.Baseline = nil
	m.Accepted = 0
	m.Frames = nil
	m = logf(m, run.RunID, Info, "requested the %s scenario", scenario)
	return m, append(cmds, StartStream{run})
}

// stopRun (rule 7, and leaving the demo): only an open run can be
// cancelled, and nothing replaces it.
func stopRun(m Model, cause CancelCause) (Model, Cmd) {
	run, ok := ActiveRun(m.Lifecycle)
	if !ok {
		return m, nil
	}
	m.Lifecycle = Cancelled{RunID: run.RunID, Cause: cause}
	m = logf(m, run.RunID, Warning, "%s; the request was aborted", cause)
	return m, AbortStream{run.Generation}
}

// activeRun returns the open run if g is its generation.
func activeRun(m Model, g Generation) (Run, bool) {
	run, ok := ActiveRun(m.Lifecycle)
	return run, ok && run.Generation == g
}

// receive applies one event of the active run (rules 2, 3, 4, 6 and 8).
func receive(m Model, run Run, msg ReceivedEvent) (Model, Cmd, Verdict) {
	switch ev := msg.Event.(type) {
	case *events.RunStartedEvent:
		if _, ok := m.Lifecycle.(Connecting); !ok {
			return failed(fail(m, run, Protocol, 4, "RUN_STARTED arrived twice"))
		}
		if reason := mismatch(run, ev.ThreadID(), ev.RunID()); reason != "" {
			return failed(fail(m, run, Protocol, 2, "RUN_STARTED "+reason))
		}
		m.Lifecycle = AwaitingSnapshot{run}
		return logf(m, run.RunID, Info, "started"), nil, Applied

	case *events.StateSnapshotEvent:
		if _, ok := m.Lifecycle.(Connecting); ok {
			return failed(fail(m, run, Protocol, 4, "STATE_SNAPSHOT before RUN_STARTED"))
		}
		w, err := DecodeSnapshot(msg.JSON)
		if err != nil {
			return rejected(reject(m, run, Rejection{
				RunID: run.RunID, Event: events.EventTypeStateSnapshot, Index: -1, Reason: Bound(err.Error()),
			}))
		}
		m.Wire = &w
		m.Accepted++
		if _, first := m.Lifecycle.(AwaitingSnapshot); first {
			m.Baseline = byID(w)
			m.Lifecycle = Streaming{run}
			m = logf(m, run.RunID, Info, "snapshot of %d services: the baseline", w.Len())
		} else {
			m = logf(m, run.RunID, Info, "snapshot of %d services", w.Len())
		}
		return reconcileSelection(m), nil, Applied

	case *events.StateDeltaEvent:
		if _, ok := m.Lifecycle.(Streaming); !ok {
			return failed(fail(m, run, Protocol, 2, "STATE_DELTA before the run's first snapshot: no baseline to patch"))
		}
		ops, err := DecodeDelta(msg.JSON)
		if err != nil {
			return rejected(reject(m, run, Rejection{
				RunID: run.RunID, Event: events.EventTypeStateDelta, Index: -1, Reason: Bound(err.Error()),
			}))
		}
		next, rejection := ApplyPatch(*m.Wire, ops, run.RunID)
		if rejection != nil {
			return rejected(reject(m, run, *rejection))
		}
		m.Wire = &next
		m.Accepted++
		m = logf(m, run.RunID, Info, "delta applied: %s", describeOps(ops))
		return reconcileSelection(m), nil, Applied

	case *events.RunFinishedEvent:
		if _, ok := m.Lifecycle.(Connecting); ok {
			return failed(fail(m, run, Protocol, 4, "RUN_FINISHED before RUN_STARTED"))
		}
		if reason := mismatch(run, ev.ThreadID(), ev.RunID()); reason != "" {
			return failed(fail(m, run, Protocol, 6, "RUN_FINISHED "+reason))
		}
		m.Lifecycle = Completed{RunID: run.RunID}
		return logf(m, run.RunID, Info, "completed"), AbortStream{run.Generation}, Applied

	case *events.RunErrorEvent:
		return failed(fail(m, run, Protocol, 8, "RUN_ERROR: "+Bound(ev.Message)))

	default:
		return logf(m, run.RunID, Info, "ignored %s: outside the supported subset (lifecycle rule 8)", Bound(string(ev.Type()))), nil, Ignored
	}
}

func failed(m Model, cmd Cmd) (Model, Cmd, Verdict)   { return m, cmd, RunFailed }
func rejected(m Model, cmd Cmd) (Model, Cmd, Verdict) { return m, cmd, Rejected }

// fail (rule 4): the run ends; the last valid data, filter and selection
// stay; its connection is aborted so nothing queued can follow.
func fail(m Model, run Run, kind FailureKind, rule int, reason string) (Model, Cmd) {
	m.Lifecycle = Failed{RunID: run.RunID, Kind: kind, Rule: rule, Reason: reason}
	m = logf(m, run.RunID, Problem, "failed (%s): %s", kind, reason)
	return m, AbortStream{run.Generation}
}

// reject records the evidence, then fails the run. The Wire is untouched.
func reject(m Model, run Run, r Rejection) (Model, Cmd) {
	m.Rejections = appendBounded(m.Rejections, r, MaxRejections)
	return fail(m, run, Protocol, 3, r.String())
}

func mismatch(run Run, threadID, runID string) string {
	if threadID != run.ThreadID || runID != run.RunID {
		return fmt.Sprintf("names thread %q run %q; this is thread %q run %q",
			Bound(threadID), Bound(runID), run.ThreadID, run.RunID)
	}
	return ""
}

// reconcileSelection keeps the selection by id while it stays visible.
func reconcileSelection(m Model) Model {
	if m.Selected != "" && !m.Shows(m.Selected) {
		m.Selected = ""
	}
	return m
}

func byID(w Wire) map[string]Service {
	out := make(map[string]Service, w.Len())
	for _, s := range w.All() {
		out[s.ID] = s
	}
	return out
}

func describeOps(ops []Operation) string {
	if len(ops) == 1 {
		return ops[0].Op + " " + Bound(ops[0].Path)
	}
	return fmt.Sprintf("%d operations", len(ops))
}

func logf(m Model, runID string, level Level, format string, args ...any) Model {
	m.Activity = appendBounded(m.Activity, Entry{RunID: runID, Level: level, Text: fmt.Sprintf(format, args...)}, MaxActivity)
	return m
}
