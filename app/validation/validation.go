// Package validation configures validator/v10 once for the project's structs
// and turns its errors into short, field-named reasons.
package validation

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/go-playground/validator/v10/non-standard/validators"
)

// New returns a validator that knows "notblank" and "finite" and names
// fields by their json tag, so reasons read like the wire format.
func New() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	must(v.RegisterValidation("notblank", validators.NotBlank))
	// gte=0 alone lets +Inf through, and NaN passes every comparison.
	must(v.RegisterValidation("finite", func(fl validator.FieldLevel) bool {
		f := fl.Field().Float()
		return !math.IsNaN(f) && !math.IsInf(f, 0)
	}))
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			return f.Name
		}
		return name
	})
	return v
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// Explain describes a validation error as "field: reason" items joined by
// "; ". Errors that are not validation errors are returned as text.
func Explain(err error) string {
	var fields validator.ValidationErrors
	if !errors.As(err, &fields) {
		return err.Error()
	}
	reasons := make([]string, 0, len(fields))
	for _, fe := range fields {
		reasons = append(reasons, field(fe)+": "+reason(fe))
	}
	return strings.Join(reasons, "; ")
}

// field drops the root struct's name from the namespace: "services[1].latency".
func field(fe validator.FieldError) string {
	ns := fe.Namespace()
	if _, rest, ok := strings.Cut(ns, "."); ok {
		return rest
	}
	return ns
}

func reason(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "notblank":
		return "must not be blank"
	case "finite":
		return "must be a finite number"
	case "gte":
		return "must be at least " + fe.Param()
	case "max":
		if fe.Kind() == reflect.String {
			return "must be at most " + fe.Param() + " characters"
		}
		return "must have at most " + fe.Param() + " items"
	case "oneof":
		return fmt.Sprintf("must be one of %s, got %q", strings.ReplaceAll(fe.Param(), " ", ", "), fmt.Sprint(fe.Value()))
	default:
		return "fails " + fe.Tag()
	}
}
