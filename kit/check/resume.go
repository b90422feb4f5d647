package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// rules.Resume fails a resume list the engine refuses to send: an
// interrupt left out, an unknown id, an expired interrupt resolved,
// another thread (agui.Pending.Check).
const ResumeRule = "resume"

// Waiting says what an interrupted run waits for, for a report.
func Waiting(p agui.Pending) string {
	var what []string
	for _, i := range p.Interrupts {
		s := fmt.Sprintf("%q (%s", i.ID, i.Reason)
		if i.ToolCallID != "" {
			s += fmt.Sprintf(", on tool call %q", i.ToolCallID)
		}
		what = append(what, s+")")
	}
	return fmt.Sprintf("run %q waits for interrupt %s", p.RunID, strings.Join(what, ", "))
}

// Resumed judges the run that answered the interrupted run named of
// (agent.Resume): the list sent, then the run as Live judges it. A list
// the engine refused fails by rules.Resume, naming the member at fault.
func Resumed(name, of string, r agent.Resumed) Result {
	var res Result
	if r.Refused != nil {
		res = Result{Name: name, Failures: []rules.Failure{refused(r.Refused)}}
	} else {
		res = Live(name, r.Exchange)
	}
	res.Continues = of
	if len(r.Answers) > 0 {
		list := []byte{'['}
		for n, a := range r.Answers {
			if n > 0 {
				list = append(list, ',')
			}
			list = append(list, agent.EntryJSON(a)...)
		}
		res.Resume = append(list, ']')
	}
	if res.Interrupted != "" {
		res.Interrupted = "again: " + res.Interrupted + "; check answers once"
	}
	return res
}

// refused is the failure of a resume list that was not sent.
func refused(err error) rules.Failure {
	var re *agui.ResumeError
	if errors.As(err, &re) {
		return rules.Failure{Rule: rules.Resume, Text: fmt.Sprintf("the resume was not sent: %s: %s", re.Field, re.Reason)}
	}
	return rules.Failure{Rule: rules.Resume, Text: "the resume was not sent: " + err.Error()}
}
