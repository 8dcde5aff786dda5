package wtask

import (
	"encoding/json"
	"errors"

	"github.com/tasktuple/task"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"
)

// callErrorType is the type of the ApplicationError that carries a
// CallError: the name the SDK gives a *task.CallError it converts by
// itself, so that code matching on the type sees no change.
const callErrorType = "CallError"

// ApplicationError returns err as a [temporal.ApplicationError] that carries
// the structure of the *[task.CallError] in it, for a workflow or an
// activity to return:
//
//	user, orders, err := wtask.Run2(ctx, loadUser.Bind(id), loadOrders.Bind(id))
//	if err != nil {
//		return Page{}, wtask.ApplicationError(err)
//	}
//
// An error that crosses from a worker to a client, a parent workflow or a
// workflow that started an activity is rebuilt from what the SDK sent: its
// message and a type. Returned as it is, a *task.CallError arrives as an
// ApplicationError of type "CallError", retryable, with nothing but the
// message. The ApplicationError that this function makes has the same type
// and message, and in its details the call, each position (index, argument,
// and the error as the SDK's failure converter encodes it) and the type and
// non-retryable flag of each failure's ApplicationError. [CallErrorOf]
// rebuilds the *task.CallError from it. It is non-retryable when every
// failure is (a retry policy will not run the workflow or the activity
// again for failures that would fail again), retryable otherwise.
//
// ApplicationError returns err unchanged when err holds no *task.CallError
// (nil included); when it holds a [temporal.CanceledError] (the workflow
// was canceled: the SDK ends the workflow as canceled only if it can find
// the CanceledError in the error it returns) or a
// [workflow.ContinueAsNewError]; and when it holds a *[task.PanicError],
// whose position is not a failure's. When err wraps the CallError
// (fmt.Errorf("page: %w", err)), the message is err's and the details are
// the CallError's.
//
// The details are one JSON value, readable in the Temporal UI:
//
//	{"call": "Run2", "failures": [{"index": 1, "arg": "f2", "type": "OutOfStock",
//	  "nonRetryable": true, "failure": {...}}], "canceled": [...]}
//
// with "failure" a temporal.api.failure.v1.Failure in the protobuf JSON
// mapping, and "ctx", "unfinished" and "canceled" as in CallError. It is a
// pure function of err: workflow code may call it.
//
// Rejected: converting in a worker interceptor or a failure converter, so
// that workflows return the CallError as it is. Both act out of sight of
// the workflow code, and a failure converter must be set on every client
// that reads the error as well as on the worker; the SDK's own idiom for
// choosing the type and retryability of a failure is an ApplicationError
// made where the error is returned.
func ApplicationError(err error) error {
	var ce *task.CallError
	if !errors.As(err, &ce) {
		return err
	}
	var (
		pe  *task.PanicError
		can *workflow.ContinueAsNewError
	)
	if temporal.IsCanceledError(err) || errors.As(err, &can) || errors.As(err, &pe) {
		return err
	}
	d := callDetails{Call: ce.Call}
	nonRetryable := len(ce.Failures) > 0
	for _, f := range ce.Failures {
		p := encodePosition(f)
		nonRetryable = nonRetryable && p.NonRetryable
		d.Failures = append(d.Failures, p)
	}
	if ce.Ctx != nil {
		d.Ctx = encodeError(ce.Ctx)
	}
	for _, u := range ce.Unfinished {
		d.Unfinished = append(d.Unfinished, encodePosition(u))
	}
	for _, c := range ce.Canceled {
		d.Canceled = append(d.Canceled, encodePosition(c))
	}
	return temporal.NewApplicationErrorWithOptions(err.Error(), callErrorType, temporal.ApplicationErrorOptions{
		NonRetryable: nonRetryable,
		Details:      []any{d},
	})
}

// CallErrorOf returns the *[task.CallError] that err holds or carries, and
// whether there was one. In the workflow or the program that made it, that
// is the CallError itself ([errors.As]). Where it arrived from elsewhere (at
// a client, from client.WorkflowRun.Get; at a parent, from a child
// workflow's future; at a workflow, from an activity's), it is rebuilt from
// the first ApplicationError in err's chain that [ApplicationError] made:
// Call, Index and Arg as they were, and each Err rebuilt by the SDK's
// default failure converter as the SDK rebuilds errors that cross, so that
// errors.As reaches the *[temporal.ActivityError] and the
// *[temporal.ApplicationError] of each failure, with its type and its
// NonRetryable flag. Each Err reads as errors read once they cross: an
// error of the SDK's (an ActivityError, a TimeoutError) as it did, and a
// Go error of another type as an ApplicationError whose type is the name
// of the Go type ("" for errors.New), which its message shows.
//
//	err := run.Get(ctx, nil)
//	if ce, ok := wtask.CallErrorOf(err); ok {
//		for _, f := range ce.Failures {
//			var ae *temporal.ApplicationError
//			if errors.As(f, &ae) && ae.Type() == "OutOfStock" { ... }
//		}
//	}
//
// An ApplicationError of type "CallError" with no details (a CallError
// returned without ApplicationError) carries only its message: CallErrorOf
// reports false for it. Payloads inside the rebuilt errors (an
// ApplicationError's details) decode with the SDK's default data converter.
func CallErrorOf(err error) (*task.CallError, bool) {
	var ce *task.CallError
	if errors.As(err, &ce) {
		return ce, true
	}
	var d callDetails
	found := walk(err, func(e error) bool {
		ae, ok := e.(*temporal.ApplicationError)
		if !ok || ae.Type() != callErrorType || !ae.HasDetails() {
			return false
		}
		d = callDetails{}
		return ae.Details(&d) == nil && d.Call != ""
	})
	if !found {
		return nil, false
	}
	ce = &task.CallError{Call: d.Call}
	ce.Failures = decodePositions(d.Call, d.Failures)
	if len(d.Ctx) > 0 {
		ce.Ctx = decodeError(d.Ctx)
	}
	ce.Unfinished = decodePositions(d.Call, d.Unfinished)
	ce.Canceled = decodePositions(d.Call, d.Canceled)
	return ce, true
}

// callDetails is the details value of the ApplicationError that
// ApplicationError makes: the structure of a CallError.
type callDetails struct {
	Call       string          `json:"call"`
	Failures   []position      `json:"failures,omitempty"`
	Ctx        json.RawMessage `json:"ctx,omitempty"`
	Unfinished []position      `json:"unfinished,omitempty"`
	Canceled   []position      `json:"canceled,omitempty"`
}

// position is one PositionError of a callDetails.
type position struct {
	Index int    `json:"index"`
	Arg   string `json:"arg"`
	// Type and NonRetryable are those of the first ApplicationError in
	// the failure's chain, as errors.As finds it once the failure is
	// rebuilt; empty and false when there is none (a timeout, a
	// cancellation).
	Type         string `json:"type,omitempty"`
	NonRetryable bool   `json:"nonRetryable,omitempty"`
	// Failure is the error in the protobuf JSON mapping of
	// temporal.api.failure.v1.Failure; absent for an unfinished position
	// with no error.
	Failure json.RawMessage `json:"failure,omitempty"`
}

// encodePosition encodes one PositionError.
func encodePosition(pe *task.PositionError) position {
	p := position{Index: pe.Index, Arg: pe.Arg}
	if pe.Err == nil {
		return p
	}
	f := temporal.GetDefaultFailureConverter().ErrorToFailure(pe.Err)
	for c := f; c != nil; c = c.GetCause() {
		if info := c.GetApplicationFailureInfo(); info != nil {
			p.Type, p.NonRetryable = info.GetType(), info.GetNonRetryable()
			break
		}
	}
	p.Failure = marshal(f)
	return p
}

// encodeError encodes an error as a failure.
func encodeError(err error) json.RawMessage {
	return marshal(temporal.GetDefaultFailureConverter().ErrorToFailure(err))
}

func marshal(f *failurepb.Failure) json.RawMessage {
	b, err := protojson.Marshal(f)
	if err != nil {
		// A Failure holds strings, numbers and bytes, which always
		// marshal; keep the message if that ever changes.
		b, _ = protojson.Marshal(&failurepb.Failure{Message: f.GetMessage()})
	}
	return b
}

// decodePositions rebuilds the PositionErrors of a call.
func decodePositions(call string, ps []position) []*task.PositionError {
	var pes []*task.PositionError
	for _, p := range ps {
		pe := &task.PositionError{Call: call, Index: p.Index, Arg: p.Arg}
		if len(p.Failure) > 0 {
			pe.Err = decodeError(p.Failure)
		}
		pes = append(pes, pe)
	}
	return pes
}

// decodeError rebuilds an error from its failure.
func decodeError(b json.RawMessage) error {
	var f failurepb.Failure
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &f); err != nil {
		return errors.New("wtask: undecodable failure: " + err.Error())
	}
	return temporal.GetDefaultFailureConverter().FailureToError(&f)
}

// walk calls visit on err and every error in its chain, depth first, until
// visit returns true.
func walk(err error, visit func(error) bool) bool {
	if err == nil {
		return false
	}
	if visit(err) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return walk(u.Unwrap(), visit)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if walk(e, visit) {
				return true
			}
		}
	}
	return false
}
