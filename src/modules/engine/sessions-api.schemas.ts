/** Wire shapes of the sessions API (`/v3/surveys/{surveyId}/sessions`). */
import { type Static, Type } from 'typebox';

export const SurveyParamsSchema = Type.Object({ surveyId: Type.String({ minLength: 1, maxLength: 100 }) });
export const SessionParamsSchema = Type.Object({
  surveyId: Type.String({ minLength: 1, maxLength: 100 }),
  sessionId: Type.String({ minLength: 1, maxLength: 100 }),
});

const Answers = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'Answers by question id: {"QID1": {"2": {"selected": true}}}, {"QID2": "text"}, matrices {"QID4": {"<row>": {"<point>": {"selected": true}}}} (a profile matrix: each row’s point from its rowScales), constant sum and rank order matrices {"QID5": {"<row>": {"<column>": 60}}}, forms/sliders/ranks {"QID6": {"<item>": value}}, files {"QID7": {"name": "cv.pdf", "type": "application/pdf", "content": "<base64>"}} (read back as {"fileId", "name", "size", "type"}; {"fileId"} keeps a file given before), signatures {"QID8": {"content": "<base64 PNG>"}}, heat maps {"QID9": {"x": 300, "y": 50}} or {"QID9": {"region": "2"}}, hot spots {"QID10": {"<region>": "on" | "off"}} or, like/dislike, {"QID10": {"<region>": "like" | "dislike" | "neither"}}.',
});

export const CreateSessionSchema = Type.Object({
  language: Type.Optional(
    Type.String({
      maxLength: 20,
      description:
        "One of the survey's languages, as the survey writes it (EN, DE, EN-GB, ZH-S; any case): the session's texts and UserLanguage. Default: the survey's base language.",
    }),
  ),
  embeddedData: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  recipient: Type.Optional(
    Type.Object({
      contactId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      recipientId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    }),
  ),
});
export type CreateSession = Static<typeof CreateSessionSchema>;

export const UpdateSessionSchema = Type.Object({
  advance: Type.Optional(Type.Boolean()),
  close: Type.Optional(Type.Boolean()),
  responses: Type.Optional(Answers),
});
export type UpdateSession = Static<typeof UpdateSessionSchema>;

const ChoiceSchema = Type.Object({
  choiceText: Type.String(),
  recode: Type.String(),
  textEntry: Type.Boolean(),
  exclusive: Type.Boolean(),
});

const QuestionSchema = Type.Object({
  questionId: Type.String(),
  questionType: Type.Object({ type: Type.String(), selector: Type.String(), subSelector: Type.String() }),
  questionText: Type.String(),
  choices: Type.Record(Type.String(), ChoiceSchema),
  /** The order the page shows the choices in (after randomisation and display logic). */
  choiceOrder: Type.Array(Type.String()),
  answers: Type.Record(Type.String(), Type.Object({ answerText: Type.String() })),
  answerOrder: Type.Array(Type.String()),
  columns: Type.Array(Type.Object({ columnId: Type.String(), answerOrder: Type.Array(Type.String()) })),
  validation: Type.Object({ forceResponse: Type.Boolean(), requestResponse: Type.Boolean() }),
  /** An in-page follow-up whose condition does not hold yet. */
  hidden: Type.Boolean(),
  /** Pick-group-rank: the group names; an answer names a group by its index here. */
  groups: Type.Optional(Type.Array(Type.String())),
  /** Constant sum: the total the numbers must add up to. */
  total: Type.Optional(Type.Number()),
  /** File upload: the largest file in bytes and the name endings taken (none: any). */
  upload: Type.Optional(Type.Object({ maxBytes: Type.Number(), fileTypes: Type.Array(Type.String()) })),
  /** Hot spot: the states a region takes (`["on", "off"]` or `["neither", "like", "dislike"]`). */
  regionStates: Type.Optional(Type.Array(Type.String())),
  /** Profile matrix: each row's own scale points, by row id (a row is answered with one of them). */
  rowScales: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({
        answers: Type.Record(Type.String(), Type.Object({ answerText: Type.String() })),
        answerOrder: Type.Array(Type.String()),
      }),
    ),
  ),
});
export type WireQuestion = Static<typeof QuestionSchema>;

export const SessionSchema = Type.Object({
  sessionId: Type.String(),
  surveyId: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('complete'), Type.Literal('quota')]),
  /** false while a page is open; the end-of-survey message once the session ended. */
  done: Type.Union([Type.Literal(false), Type.String()]),
  questions: Type.Array(QuestionSchema),
  responses: Answers,
  progress: Type.Union([Type.Number(), Type.Null()]),
  responseId: Type.Union([Type.String(), Type.Null()]),
  redirect: Type.Union([Type.String(), Type.Null()]),
});
export type WireSession = Static<typeof SessionSchema>;
