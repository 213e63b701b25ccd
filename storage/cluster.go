package storage

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// reloadOnLoss makes a Cluster client read the cluster's slot map again when a command fails
// without a reply from a server (a node lost): go-redis does so on MOVED replies only, and
// otherwise keeps sending a lost master's slots to it until its map is 10 s old, long after a
// replica has taken its place (about twice cluster-node-timeout). The reload runs in the
// background, one at a time (go-redis's LazyReload).
type reloadOnLoss struct{ c *redis.ClusterClient }

func (h reloadOnLoss) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h reloadOnLoss) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		h.check(err)
		return err
	}
}

func (h reloadOnLoss) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, c := range cmds {
			h.check(c.Err())
		}
		return err
	}
}

// check reloads the slot map after err when it is a lost node's (not a reply, not a missing
// key, not the caller's own end) or a reply that the cluster is down for a slot.
func (h reloadOnLoss) check(err error) {
	if err == nil || errors.Is(err, redis.Nil) || errors.Is(err, context.Canceled) {
		return
	}
	var rerr redis.Error
	if !errors.As(err, &rerr) || redis.HasErrorPrefix(err, "CLUSTERDOWN") {
		h.c.ReloadState(context.Background())
	}
}

// newClusterClient is redis.NewClusterClient with reloadOnLoss.
func newClusterClient(o *redis.ClusterOptions) *redis.ClusterClient {
	c := redis.NewClusterClient(o)
	c.AddHook(reloadOnLoss{c})
	return c
}
