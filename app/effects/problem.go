package effects

import (
	"fmt"
	"net/http"
)

// refused describes a refused request by its status and problem+json.
func refused(status int, p problemDetails) error {
	title := p.Title
	if title == "" {
		title = http.StatusText(status)
	}
	reason := fmt.Sprintf("HTTP %d %s", status, title)
	if p.Detail != "" {
		reason += ": " + p.Detail
	}
	return fmt.Errorf("%s", reason)
}

// problemDetails is the part of an RFC 9457 problem details body the
// client shows.
type problemDetails struct {
	Title  string `json:"title"`
	Detail string `json:"detail"`
}
