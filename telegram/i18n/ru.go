package i18n

var ru = map[Key]string{
	KeyCmdStart:  "Начало: главное меню",
	KeyCmdAI:     "Игра с ботом: /ai [размер] [уровень 1-6] [black|white|random]",
	KeyCmdNew:    "Вызов человеку: лобби в группе, ссылка-приглашение в личке",
	KeyCmdFind:   "Случайный соперник: /find [размер]",
	KeyCmdCancel: "Прекратить поиск соперника",
	KeyCmdBoard:  "Показать доску ещё раз",
	KeyCmdMove:   "Сделать ход: /move d3",
	KeyCmdResign: "Сдаться (или отменить своё лобби)",
	KeyCmdStats:  "Ваши результаты и рейтинг",
	KeyCmdTop:    "Лучшие игроки (в группе — этой группы)",
	KeyCmdRules:  "Правила реверси",
	KeyCmdHelp:   "Что умеет бот",
	KeyCmdLang:   "Язык: /lang ru или /lang en",
	KeyCmdStyle:  "Доска 8×8 кнопками или картинкой: /style buttons|image",

	KeyStartWelcome:    "Привет, %s! Я провожу партии в реверси (отелло): со мной, с другом, в группе или со случайным соперником. Во что сыграем?",
	KeyMenuAI:          "🤖 Играть с ботом",
	KeyMenuFriend:      "👥 Играть с другом",
	KeyMenuFind:        "🎲 Случайный соперник",
	KeyMenuRules:       "📖 Правила",
	KeyMenuStats:       "📊 Моя статистика",
	KeyMenuLang:        "🌐 Language: English",
	KeyMenuBack:        "« Назад",
	KeyMenuStyle:       "🎨 Вид доски",
	KeyMenuChooseSize:  "Выберите размер доски:",
	KeyMenuChooseLevel: "Выберите уровень бота:",
	KeyMenuChooseColor: "Выберите цвет (чёрные ходят первыми):",
	KeyMenuSize:        "%[1]d×%[1]d",
	KeyMenuFriendHow:   "Чтобы сыграть с другом: отправьте ему приглашение командой /new здесь, или наберите моё имя в любом чате и выберите доску, или добавьте меня в группу и напишите там /new.",
	KeyColorBlack:      "⚫ Чёрные",
	KeyColorWhite:      "⚪ Белые",
	KeyColorRandom:     "🎲 Случайно",
	KeyColorNameBlack:  "чёрными",
	KeyColorNameWhite:  "белыми",

	KeyHelpText: `Что я умею:

/ai [размер] [уровень] [цвет] — игра со мной. Размеры 8, 10, 12, 16; уровни от 1 (Начинающий) до 6 (Мастер); цвет black, white или random. Пример: /ai 8 3 white.
/new [размер] — вызов человеку: в группе открывает партию, к которой может присоединиться любой; в личном чате даёт приглашение, которое можно переслать.
/find [размер] — игра со случайным соперником; /cancel прекращает поиск.
/board — показать текущую доску ещё раз.
/move d3 — ход текстом (в личном чате можно просто d3).
/resign — сдаться.
/stats, /top — результаты и рейтинги.
/rules — правила.
/lang ru | en — язык.
/style buttons | image — вид доски 8×8: поле из кнопок или картинка с кнопками ваших возможных ходов (большие доски всегда картинкой). Выбор действует в ваших личных чатах, а партия в группе рисуется так, как выбрал тот, кто её открыл.

А ещё можно набрать моё имя в любом чате и предложить партию прямо там.`,

	KeyRulesText: `Как играть в реверси

Доска — квадрат из клеток: 8×8 — классика, на 10×10, 12×12 и 16×16 партии длиннее. Столбцы обозначены буквами слева направо (a, b, c…), строки — числами сверху вниз (1, 2, 3…): a1 — левый верхний угол.

В начале в центре стоят четыре фишки: две чёрные ⚫ и две белые ⚪ по диагоналям. Первыми ходят чёрные, дальше игроки ходят по очереди.

Ход — это фишка своего цвета на пустой клетке, поставленная так, чтобы хотя бы по одной прямой (по горизонтали, вертикали или диагонали) между ней и другой вашей фишкой оказался ряд фишек соперника. Все такие ряды переворачиваются в ваш цвет. Ход, который ничего не переворачивает, делать нельзя.

Если ход есть, его нужно сделать. Если хода нет, вы пропускаете, и соперник ходит снова; пропуск я делаю за вас и сообщаю о нём.

Партия кончается, когда ходить не может никто, обычно когда доска заполнена. Побеждает тот, у кого больше фишек; при равенстве — ничья.

Как ходить здесь: нажмите на клетку доски. На больших досках позицию показывает картинка, а кнопки перечисляют ваши возможные ходы. Ход можно и написать: d3 в личном чате, /move d3 где угодно (в группах я вижу только команды).

Если соперник слишком долго не ходит в свою очередь, можно забрать победу. В игре со мной можно отменить ход, а на уровнях 1-3 — попросить подсказку.`,

	KeyLevel1:    "Начинающий",
	KeyLevel2:    "Новичок",
	KeyLevel3:    "Любитель",
	KeyLevel4:    "Клубный игрок",
	KeyLevel5:    "Эксперт",
	KeyLevel6:    "Мастер",
	KeyLevelLine: "Уровень %d: %s",

	KeyErrNoGame:         "Здесь нет партии. Начните её командой /ai, /new или /find.",
	KeyErrNotYourGame:    "Это не ваша партия: ходить могут только двое игроков.",
	KeyErrNotYourTurn:    "Сейчас не ваш ход.",
	KeyErrStale:          "Доска изменилась, пока вы смотрели. Взгляните ещё раз и сделайте ход.",
	KeyErrOffBoard:       "Такой клетки на этой доске нет.",
	KeyErrOccupied:       "Эта клетка занята.",
	KeyErrIllegal:        "Сюда ходить нельзя: ход должен перевернуть хотя бы одну фишку.",
	KeyErrGameOver:       "Эта партия окончена.",
	KeyErrNotStarted:     "Партия ещё не началась: ждём второго игрока.",
	KeyErrNotOver:        "Партия ещё идёт.",
	KeyErrConflict:       "Кто-то походил в тот же миг. Нажмите ещё раз.",
	KeyErrAlreadyPlaying: "Здесь уже идёт партия. Доиграйте её или сдайтесь (/resign).",
	KeyErrOwnLobby:       "Это ваша собственная партия: дождитесь, пока присоединится кто-то другой.",
	KeyErrLobbyTaken:     "К этой партии уже присоединился другой игрок.",
	KeyErrNotAIGame:      "Это можно только в игре с ботом.",
	KeyErrNoHint:         "Подсказки есть только на уровнях 1-3.",
	KeyErrNothingToUndo:  "Нет вашего хода, который можно отменить.",
	KeyErrNotIdle:        "У соперника ещё есть время на ход.",
	KeyErrPeopleOnly:     "Это можно только в партии между людьми.",
	KeyErrBadSize:        "Размеры доски: 8, 10, 12 или 16.",
	KeyErrBadLevel:       "Уровни — от 1 до 6.",
	KeyErrBadRequest:     "Не понял запрос.",
	KeyErrBusy:           "Я думаю сразу над многими партиями. Нажмите на доску ещё раз чуть позже.",
	KeyErrInternal:       "У меня что-то сломалось. Попробуйте ещё раз.",
	KeyErrUnknownCommand: "Такой команды я не знаю. /help — список того, что я умею.",
	KeyErrBadMove:        "Не понимаю «%s». Напишите ход, например d3.",
	KeyErrPrivateOnly:    "Это работает в личном чате со мной.",
	KeyErrGroupOnly:      "Это работает в группе.",
	KeyErrOldButton:      "Эта кнопка устарела.",
	KeyErrQueuedAlready:  "Вы уже ищете соперника. /cancel прекращает поиск.",

	// Issue 12 (trust-edge): taps whose data belongs to another message, forged invitations.
	KeyErrForeignBoard:      "Эта кнопка не относится к этому сообщению. Ничего не сделано.",
	KeyErrOldBoard:          "Эта доска устарела. Отправьте /board, чтобы получить актуальную.",
	KeyErrBadInvitation:     "Это приглашение здесь недействительно. Отправьте новое.",
	KeyErrInvitationExpired: "Срок этого приглашения истёк. Отправьте новое.",

	KeyLobbyText:         "%s хочет сыграть в реверси на доске %d×%d (%s). Кто примет вызов?",
	KeyLobbyTextColor:    "%s хочет сыграть в реверси на доске %d×%d и играет %s. Кто примет вызов?",
	KeyLobbyJoin:         "✅ Присоединиться",
	KeyLobbyCancel:       "✖ Отменить",
	KeyLobbyCancelled:    "Партия отменена.",
	KeyLobbyRandomColors: "цвета по жребию",
	KeyInviteCreated:     "Перешлите следующее сообщение другу. Кто его откроет, сыграет с вами на доске %d×%d.",
	KeyInviteText:        "%s приглашает вас сыграть в реверси на доске %d×%d.",
	KeyInviteButton:      "▶ Играть",
	KeyInviteJoined:      "%s принял(а) приглашение. Партия началась!",
	KeyInlineTitle:       "Реверси %[1]d×%[1]d",
	KeyInlineDescription: "Предложить партию на доске %[1]d×%[1]d; играет первый, кто нажмёт «Присоединиться»",
	KeyInlineText:        "%s приглашает этот чат сыграть в реверси на доске %d×%d. Играет первый, кто нажмёт «Присоединиться».",
	KeyJoined:            "%s присоединился(-ась). %s играет чёрными и ходит первым.",

	KeyFindQueued:    "Ищу соперника для доски %d×%d… Напишу, когда найду. /cancel прекращает поиск.",
	KeyFindPaired:    "Соперник найден: %s. Вы играете %s.",
	KeyFindCancelled: "Поиск соперника прекращён.",
	KeyFindNotQueued: "Вы и не искали соперника.",

	KeyGamePlayers:    "⚫ %s — ⚪ %s",
	KeyGameScore:      "⚫ %d : %d ⚪",
	KeyGameTurn:       "Ходит %s (%s).",
	KeyGameYourTurn:   "Ваш ход (%s).",
	KeyGameLastMove:   "Последний ход: %s.",
	KeyGameThinking:   "Думаю…",
	KeyGameBotName:    "Бот (%s)",
	KeyGameSize:       "Доска %[1]d×%[1]d",
	KeyGameMovesPage:  "Ходы %d-%d из %d",
	KeyGameIdleClaim:  "%s не ходит уже %s. Можно забрать победу.",
	KeyGameIdleWait:   "Вы сможете забрать победу, если соперник не походит за %s.",
	KeyGameHint:       "Попробуйте %s.",
	KeyNoticeYourMove: "%s: ход %s. Теперь ваш ход.",
	KeyNoticeGameOver: "%s: ход %s. Партия окончена — взгляните на доску.",
	KeyNoticeResigned: "%s сдаётся. Партия окончена.",
	KeyGameMoved:      "Ход %s сделан. Доска сейчас обновится.",
	KeyGameMovedReply: "Ход %s сделан, бот ответил %s. Доска сейчас обновится.",
	KeyGameRedrawing:  "Доска вот-вот обновится и покажет последний ход: взгляните через мгновение.",
	KeyGameUndone:     "Отменено ходов: %d.",
	KeyGamePass:       "У игрока %s нет хода — пропуск.",
	KeyGamePassesBoth: "Ходов нет ни у кого.",

	KeyBtnUndo:    "↩ Отменить",
	KeyBtnHint:    "💡 Подсказка",
	KeyBtnResign:  "🏳 Сдаться",
	KeyBtnRematch: "🔁 Реванш",
	KeyBtnClaim:   "⏰ Забрать победу",

	// /style.
	KeyStyleChoose:      "Как рисовать для вас доски 8×8? Кнопки: доска — клавиатура, по клеткам которой нажимают. Картинка: изображение и кнопки с вашими возможными ходами. Сейчас: %s.", // style name
	KeyStyleButtons:     "⬛ Кнопки",
	KeyStyleImage:       "🖼 Картинка",
	KeyStyleNameButtons: "кнопки",
	KeyStyleNameImage:   "картинка",
	KeyStyleSet:         "Доски 8×8 будут рисоваться так: %s.", // style name
	KeyGameClaimOwnTurn: "Сейчас ваш ход: забрать победу можно, только пока вас заставляет ждать соперник.",
	KeyBtnRefresh:       "🔄 Обновить",
	KeyBtnPicture:       "🖼 Картинка",
	KeyBtnKeyboard:      "⌨ Кнопки",
	KeyBtnPrev:          "◀",
	KeyBtnNext:          "▶",
	KeyBtnNewGame:       "🆕 Новая партия",

	KeyResultWin:     "Победа: %s, %d : %d.",
	KeyResultDraw:    "Ничья, %d : %d.",
	KeyResultResign:  "%s сдался(-ась). Победа: %s.",
	KeyResultTimeout: "%s не походил(а) вовремя. Победа: %s.",
	KeyResultAbandon: "Партия брошена.",
	KeyResultRecord:  "Запись партии: %s",
	KeyResultYouWin:  "Вы победили! 🎉",
	KeyResultYouLose: "Вы проиграли. Ещё партию?",

	KeyStatsHeader:   "%s — рейтинг %d",
	KeyStatsPeople:   "С людьми: побед %d, поражений %d, ничьих %d.",
	KeyStatsAIHeader: "С ботом:",
	KeyStatsAILine:   "%s: побед %d, поражений %d, ничьих %d",
	KeyStatsNone:     "Законченных партий пока нет.",
	KeyTopGlobal:     "Лучшие игроки:",
	KeyTopGroup:      "Лучшие игроки этой группы:",
	KeyTopLine:       "%d. %s — %d (%d/%d/%d)",
	KeyTopEmpty:      "Ещё никто не закончил рейтинговую партию.",

	KeyLangCurrent: "Язык: русский. /lang en переключает на английский.",
	KeyLangSet:     "Буду говорить по-русски.",
	KeyLangUnknown: "Я говорю по-английски (en) и по-русски (ru): /lang en или /lang ru.",

	KeyUnitDays:    "%d дн.",
	KeyUnitHours:   "%d ч",
	KeyUnitMinutes: "%d мин",

	// Issue 12 item 7 (corrupt records set aside): the text of host code set_aside.
	KeyErrSetAside: "Вашу партию не удалось прочитать, и она отложена; начните новую: /ai или /new.",

	// Atomic starts (issue 12, trust-store): the other player's chat has another game.
	KeyErrOpponentBusy: "Соперник сейчас играет другую партию. Попробуйте, когда она закончится.",

	// Per-user update budget (issue 12, trust-flood): the short answer to updates over it.
	KeyFloodTooFast: "Слишком быстро — подождите немного.",

	// The end of a game and what comes next (issue 15, items 2-4).
	KeyBtnResignAsk:     "🏳 Сдаться?",
	KeyBtnYes:           "Да",
	KeyBtnNo:            "Нет",
	KeyBtnAccept:        "✅ Принять",
	KeyBtnDecline:       "✖ Отказаться",
	KeyBtnWithdraw:      "✖ Отозвать",
	KeyBtnOtherGame:     "🎚 Уровень или размер",
	KeyBtnMenu:          "☰ Меню",
	KeyEndYouWin:        "Вы победили, %d : %d! 🎉",
	KeyEndYouLose:       "Вы проиграли, %d : %d. Ещё партию?",
	KeyEndRatings:       "Рейтинг: %s, %s",
	KeyEndRating:        "%s %d (%s)",
	KeyEndAborted:       "Партия прервана до того, как оба игрока сделали ход: без результата, рейтинг не меняется.",
	KeyEndRecord:        "Ходы: %s",
	KeyEndPass:          "пас",
	KeyEndMovesInRow:    "Ходы подряд, %s: %s.",
	KeyEndOffered:       "%s предлагает реванш (предложение действует %s).",
	KeyEndOfferedByYou:  "Вы предложили реванш (предложение действует %s). Ждём, пока %s согласится.",
	KeyEndOfferedToYou:  "%s предлагает вам реванш (предложение действует %s).",
	KeyEndAccepted:      "Реванш принят: новая партия началась.",
	KeyEndDeclined:      "%s отказывается от реванша.",
	KeyEndWithdrawn:     "%s отзывает предложение реванша.",
	KeyEndExpired:       "Предложение реванша от игрока %s истекло.",
	KeyEndOfferSent:     "Реванш предложен.",
	KeyEndOfferNotice:   "%s предлагает вам реванш: принять или отказаться можно на вашей доске.",
	KeyEndWaitingAccept: "Ваше предложение в силе: принять его должен соперник.",
	KeyEndNotAsked:      "Этот вопрос не вам.",
	KeyErrNoOffer:       "Нет предложения реванша, на которое можно ответить.",
	KeyErrOwnOffer:      "Ваше предложение в силе: принять его должен соперник.",
	KeyErrOfferExpired:  "Предложение реванша истекло. Нажмите «Реванш», чтобы предложить снова.",
}
