package proxy

import (
	"net/url"

	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/sarif"
)

// SARIF is a run's failures as SARIF results: the rule, its page, the
// event, and where: the upstream URL the run was posted to, without its
// secrets (agent.RedactURL).
func (p *Proxy) SARIF(r Run) []sarif.Result {
	where := agent.RedactURL(p.join((&url.URL{Path: r.Path}).EscapedPath(), "").String())
	out := make([]sarif.Result, 0, len(r.Failures))
	for _, f := range r.Failures {
		out = append(out, sarif.Result{
			RuleID: f.Rule, HelpURI: f.Page(), Message: r.Name() + ": " + f.String(), URI: where, Event: f.Event,
		})
	}
	return out
}
