package botapi

import "context"

// A PaceHook is told of the waits for pacing of the sends and edits made with a context that
// carries it (WithPaceHook): it is called as Pacer.Wait starts, and the func it returns (nil:
// none) once that Wait returns, whether it got its budget or not. So a caller that bounds
// work in progress can tell a call waiting for Telegram's flood limits, which does no work,
// from one that works. Sends of one context may wait at once: a hook must be safe for
// concurrent use, and return quickly.
type PaceHook func() (done func())

// paceHookKey is the context key of WithPaceHook.
type paceHookKey struct{}

// WithPaceHook returns ctx telling h of the pacing waits of the sends and edits made with it
// (or a context made from it).
func WithPaceHook(ctx context.Context, h PaceHook) context.Context {
	return context.WithValue(ctx, paceHookKey{}, h)
}

// paceWaiting tells ctx's PaceHook, if any, that a wait starts, and returns what tells it the
// wait ended.
func paceWaiting(ctx context.Context) func() {
	if h, ok := ctx.Value(paceHookKey{}).(PaceHook); ok && h != nil {
		if done := h(); done != nil {
			return done
		}
	}
	return func() {}
}
