package botapi

import "context"

// A group that becomes a supergroup gets a new chat id; every call on the old id is then
// refused with 400 and parameters.migrate_to_chat_id (KindMigrated, MigratedTo). A send
// belongs to the chat, not to a message of it: it is made again, once, on the new id, and
// its Message names the new chat. An edit or a delete of a message in the old chat cannot
// follow (the message stays in the old chat, which can no longer be changed): it fails with
// the error. Either way Options.OnMigrate is told, so that the bot moves what it keeps under
// the old id and shows its boards in the new chat.

// movable returns k made on the chat *chat, the chat_id of the call's parameters, and able to
// follow that chat to its new id: a migration points *chat at it (see migrated).
func movable(k call, chat *any) call {
	k.chat = chatKey(*chat, "")
	k.rechat = func(to int64) { *chat = to }
	return k
}

// migrated handles the call k refused with err because its group became the supergroup to:
// it tells Options.OnMigrate, then makes a call that can follow its chat (k.rechat) again on
// the new id, once, with the retries k allows; any other call returns err.
func (c *Client) migrated(ctx context.Context, k call, fn func(ctx context.Context) error, err error, to int64) error {
	if from := k.chat; c.migrate != nil && !from.Inline() && from.id != 0 && from.id != to {
		c.migrate(from.id, to)
	}
	if k.rechat == nil || ctx.Err() != nil {
		return err
	}
	k.rechat(to)
	k.chat, k.rechat = ChatOf(to), nil
	return c.retry(ctx, k.safe, func() error { return c.attempt(ctx, k, fn) })
}
