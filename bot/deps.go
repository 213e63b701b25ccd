package bot

import (
	"context"
	"time"
)

// RateLimiter keeps each user's budget of updates where every process that shares it counts
// it (package storage's Store does, in Redis).
type RateLimiter interface {
	// AllowUpdate takes one update from user's budget of burst at once, then rate per per,
	// and reports whether it had room; when it had none, retryAfter says when it will have.
	AllowUpdate(ctx context.Context, user int64, rate int, per time.Duration, burst int) (ok bool, retryAfter time.Duration, err error)
}
