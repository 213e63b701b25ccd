// Package telegramtest is a fake Telegram Bot API server for tests.
//
// A [Server] is a plain HTTP server on 127.0.0.1 with a random port (or the
// address given by [WithAddr]). It speaks the Bot API wire format the way
// api.telegram.org does: every method is reached at
// <URL>/bot<token>/<method>, parameters may come as multipart/form-data (what
// go-telegram/bot sends), as a URL-encoded form, as a JSON object or in the
// query string, and every answer is {"ok":true,"result":...} or
// {"ok":false,"error_code":N,"description":"...","parameters":{...}} with the
// HTTP status equal to error_code. So both an in-process client
//
//	srv := telegramtest.Start(t)
//	b, err := bot.New(srv.Token(), bot.WithServerURL(srv.URL()), bot.WithSkipGetMe())
//
// and a separately started bot binary (TELEGRAM_API_URL=srv.URL()) can use it.
//
// # State
//
// The server keeps users, chats (private chats have the user's id, groups a
// negative id and a member list), the messages of every chat (text or
// photo+caption, inline keyboard, how often each was edited), messages posted
// through inline mode (keyed by inline_message_id), uploaded photos (their
// bytes, so a test can decode the PNG the bot drew), callback query answers,
// inline query answers and the commands registered with setMyCommands.
//
// # Methods
//
// getMe, getUpdates (long polling: offset, limit, timeout and allowed_updates
// honoured; a request returns as soon as an update is queued), setWebhook,
// deleteWebhook, getWebhookInfo, setMyCommands, getMyCommands,
// deleteMyCommands, sendMessage, sendPhoto, editMessageText,
// editMessageCaption, editMessageReplyMarkup, editMessageMedia, deleteMessage,
// answerCallbackQuery, answerInlineQuery, getChat, getChatMember,
// sendChatAction. Any other
// method answers 404 "Not Found" and a wrong token answers 401
// "Unauthorized", as Telegram does.
//
// # The Bot API's description
//
// Every call is first checked against the Bot API's own machine-readable description (a
// part of it, derived into testdata/botapi.json; see spec.go): a parameter the method does
// not have, a missing required one, a value not of its type (Integer, Float, Boolean,
// InputFile, or JSON of an object or an array, checked member by member against the types
// the description gives: no unknown field, every required one, the right types, a subtype's
// "type", the lengths it states) and the rules it states of a type's fields (an inline
// keyboard button has exactly one action) are refused with a 400. So the fake is stricter
// than Telegram, which ignores an unknown parameter and reads a malformed number as 0, and
// never kinder than the documentation. go-telegram/bot's own InlineKeyboardMarkup is refused:
// it sends every button with "copy_text":{"text":""} (BUTTON_COPY_TEXT_INVALID); send
// keyboards as botapi.Markup makes them.
//
// # Limits
//
// The fake rejects what Telegram rejects, with Telegram's error texts:
// more than 8 buttons in a row or 100 in a keyboard (REPLY_MARKUP_TOO_LONG),
// callback_data outside 1–64 bytes (BUTTON_DATA_INVALID), a copy_text outside 1–256
// characters (BUTTON_COPY_TEXT_INVALID), an inline button
// without an action ("Text buttons are unallowed in the inline keyboard") or with several,
// text over 4096 or a caption over 1024 UTF-16 units, an empty text, HTML that
// does not parse with parse_mode=HTML, entities (entities, caption_entities) that do not lie
// inside the text in UTF-16 units, a text_mention without a user, a callback query answered twice or
// unknown ("query is too old and response timeout expired or query ID is
// invalid"), an alert over 200 characters (MESSAGE_TOO_LONG), an edit that
// changes nothing ("message is not modified: ..."), an edit or delete of a
// message that does not exist, a chat that does not exist, a private chat
// with a user who never wrote to the bot ("bot can't initiate conversation
// with a user"), an upload in editMessageMedia of an inline message. An edit
// of an inline message returns true instead of a Message. An edit without
// reply_markup removes the inline keyboard, as in Telegram.
//
// A few texts are not documented by Telegram and are the fake's best guess:
// a row of more than 8 buttons (Telegram's own behaviour there is not
// documented; the fake answers REPLY_MARKUP_TOO_LONG), an empty button text,
// the upload into an inline message, and what the description forbids but
// Telegram lets pass (an unknown parameter or field, a button with several
// actions). Tests should match on the
// upper-case code or on the well-known prefix, not on those full texts.
//
// # Flood limits
//
// With [WithFloodLimits] (off by default) the fake also enforces Telegram's flood limits
// on sends and edits (sendMessage, sendPhoto, sendAnimation, editMessage*), which share one
// budget: per chat (each inline message counting as a chat of its own), per group and per
// inline message on top, and across all chats. Each budget is counted as Telegram counts
// it, over every window rather than as a rate with a burst on top: a call goes only when
// the calls let through in the window that ends with it are fewer than the budget's figure
// ([Window]); [DefaultFloodLimits] holds Telegram's figures (three in any second in a chat,
// twenty in any minute in a group or an inline message, thirty in any second in all). A
// call over a budget gets HTTP 429 "Too Many Requests: retry after N" with
// parameters.retry_after = N (when the window will have room) and has no effect; a client
// that calls again before N seconds have passed is given a doubled N, up to a cap. The
// windows run on the server's clock ([WithClock]), so tests drive them without sleeping,
// and [Server.TooManyRequests] counts the 429s given, per chat, so a test can assert none
// came. answerCallbackQuery, deleteMessage and every method that neither sends nor edits a
// message are never limited.
//
// # Scripted users
//
// [Server.NewUser] and [Server.NewGroup] create people and groups;
// a [Person] sends messages ([Person.Send]), presses buttons of the CURRENT
// keyboard of a message ([Person.Press], [Person.PressAt], [Person.PressData] for
// forged data, [Person.PressInline], [Person.PressInlineData] for forged data on
// an inline message), types inline queries ([Person.InlineQuery]) and picks a
// result ([Person.ChooseInlineResult]), which posts the inline message into a
// chat and sends chosen_inline_result (unless [Server.SetInlineFeedback]
// switched inline feedback off). A URL button that
// points to t.me/<bot>?start=PAYLOAD is opened as "/start PAYLOAD" in the
// user's private chat. [Server.Deliver] and [Server.DeliverRaw] queue any
// update, forged or malformed, for fuzzing. Update ids increase by one.
//
// # Supergroups
//
// [Server.NewGroup] makes a supergroup; [Server.NewBasicGroup] a basic group, which
// [Group.Upgrade] turns into a supergroup as Telegram does: a new chat with a -100… id and the
// same members, the two service messages (migrate_to_chat_id in the old chat,
// migrate_from_chat_id in the new one) queued in the order the test chooses, or none
// ([Silent]), and from then on every call on the old id answered 400 "Bad Request: group chat
// was upgraded to a supergroup chat" with parameters.migrate_to_chat_id.
//
// # Observing
//
// Tests never sleep: [Server.WaitFor] blocks until a predicate over a [View]
// of the state holds, [Server.WaitChat] until a predicate about one chat's
// messages holds, [Server.WaitMessage] until a message of a chat matches,
// [Server.WaitCallbackAnswer] and [Server.WaitInlineAnswer] until the bot has
// answered. WaitFor and WaitInlineAnswer are woken by every change of the
// state; WaitChat and WaitMessage only by a message of their chat being sent,
// edited or deleted, and WaitCallbackAnswer only by its answer, so that many
// waiters (a load generator's thousands of chats) cost nothing while other
// chats change. The context passed in only bounds a failing wait.
// [Server.Messages], [Server.MessagesSince], [Server.LastMessage],
// [Server.CallbackAnswer], [Server.Calls] and [Server.CallLog] read the state;
// [Server.Peek] reads a message without copying its keyboard, for hot loops.
// Every recorded event carries a sequence number (Message.Seq,
// CallbackAnswer.Seq, Call.Seq) so a test can check the order of, say, an
// answerCallbackQuery and the edit that followed it; a callback answer also
// carries the server clock's time (CallbackAnswer.Time).
//
// # Cost
//
// Requests and answers go through encoding/json only: a JSON body is read into its fields,
// every JSON parameter into encoding/json's generic values for the description's checks, a
// reply_markup then into small local structs that keep which button fields were present (to
// judge a button as Telegram does), and messages, updates and answers are encoded from the
// library's models types. Request fields, text and keyboards are decoded and checked before
// the server's lock is taken; a message's JSON is encoded once per change and reused in the
// answer to the call that made it and in every callback query pressed on it; and a wait
// wakes only for what it waits for. Keyboards in answers and updates leave out an empty
// copy_text, as Telegram does. BenchmarkEditBoardJSON measures one board edit.
//
// # Faults and webhooks
//
// [Server.FailNext] makes the next calls of a method fail with a 429
// (parameters.retry_after set) or a 5xx before the method has any effect.
// After setWebhook with a URL the server POSTs updates there, one at a time
// and in order, with the X-Telegram-Bot-Api-Secret-Token header, retrying a
// non-2xx answer with a short backoff a bounded number of times before it
// drops the update; getUpdates then answers 409 Conflict. A second
// concurrent getUpdates ends the first with 409 Conflict, as Telegram does
// when two bot processes poll.
//
// All methods of Server, User, Group and View are safe for concurrent use.
package telegramtest
