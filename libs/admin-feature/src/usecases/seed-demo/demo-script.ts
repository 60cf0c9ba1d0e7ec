/** The demo organization's content: who says what, in which chat, in what order. */

export interface DemoImage {
  filename: string;
  mimetype: string;
  width: number;
  height: number;
  size: number;
}

export interface ScriptLine {
  /** 'me': sent by the demo phone; otherwise the sender's digits. */
  from: 'me' | string;
  text?: string;
  image?: DemoImage;
  /** Digits of contacts mentioned in the text. */
  mentions?: string[];
}

/** A burst of messages starting `hoursAgo` before the seed time, a few minutes apart. */
export interface ScriptSession {
  hoursAgo: number;
  lines: ScriptLine[];
}

export interface DemoChatScript {
  /** Index into DEMO_PHONES of the phone that holds this chat. */
  phone: number;
  chat_id: string;
  chat_name: string;
  chat_type: 'user' | 'group';
  /** Digits of the members other than the demo phone (groups only). */
  members: string[];
  sessions: ScriptSession[];
}

export const DEMO_ORG_NAME = 'Demo Org';
export const DEMO_TOKEN_NAME = 'demo token';
/** The demo organization's owner, who signs in to the console (a new password every seed run). */
export const DEMO_OWNER_EMAIL = 'owner@demo.example.com';
export const DEMO_OWNER_NAME = 'Demo Owner';

export const DEMO_PHONES = [
  { digits: '14155550100', name: 'Demo Support' },
  { digits: '14155550111', name: 'Demo Sales' },
] as const;

const ALICE = '14155550123';
const BOB = '14155550124';
const CARLA = '14155550125';
const DAN = '447700900123';

const jpeg = (filename: string, width: number, height: number, size: number): DemoImage => ({
  filename,
  mimetype: 'image/jpeg',
  width,
  height,
  size,
});

export const DEMO_CHATS: DemoChatScript[] = [
  {
    phone: 0,
    chat_id: `${ALICE}@c.us`,
    chat_name: 'Alice Martin',
    chat_type: 'user',
    members: [ALICE],
    sessions: [
      {
        hoursAgo: 142,
        lines: [
          { from: ALICE, text: 'Hi! I ordered a blue hoodie last week, order #4521. Any update?' },
          { from: 'me', text: 'Hello Alice, thanks for reaching out! Let me check order #4521 for you.' },
          { from: 'me', text: 'It left our warehouse yesterday and should arrive by Thursday.' },
          { from: ALICE, text: 'Great, thanks. Can I still change the delivery address?' },
          { from: 'me', text: "Yes, as long as it hasn't reached the local depot. What's the new address?" },
          { from: ALICE, text: '221 Market Street, Apt 5, San Francisco 94105' },
          { from: 'me', text: 'Done, the courier has the new address now.' },
          {
            from: ALICE,
            text: 'This is the label I got by email, is it right?',
            image: jpeg('IMG-20261116-WA0004.jpg', 1080, 1440, 184_320),
          },
          { from: 'me', text: "Yes, that's the right label. Tracking number 1Z999AA10123456784." },
          { from: ALICE, text: 'Perfect 👍' },
        ],
      },
      {
        hoursAgo: 95,
        lines: [
          { from: ALICE, text: "The hoodie arrived but it's a size too small 😅" },
          { from: 'me', text: 'Sorry about that! We can exchange it for free.' },
          { from: 'me', text: 'Which size would you like instead?' },
          { from: ALICE, text: 'Large please' },
          { from: 'me', text: "I've created exchange request EX-1187. A courier will pick up the parcel tomorrow between 9 and 12." },
          { from: ALICE, text: 'Thanks! Do I need to print anything?' },
          {
            from: 'me',
            text: "Here's the return label, just show it to the courier.",
            image: jpeg('return-label-EX-1187.jpg', 1240, 1754, 96_256),
          },
          { from: ALICE, text: 'Got it' },
        ],
      },
      {
        hoursAgo: 70,
        lines: [
          { from: ALICE, text: 'The courier picked it up this morning' },
          { from: 'me', text: 'Thanks for letting us know. The large one ships as soon as the return is scanned.' },
          { from: ALICE, text: 'Will I get an email when it ships?' },
          { from: 'me', text: 'Yes, you will get the tracking link by email and in this chat.' },
        ],
      },
      {
        hoursAgo: 26,
        lines: [
          { from: 'me', text: 'Good news: your new hoodie (size L) is on its way, arriving Friday.' },
          { from: ALICE, text: 'Amazing, thank you so much!' },
          { from: 'me', text: "You're welcome! Anything else I can help with?" },
          { from: ALICE, text: "No, that's all. Have a nice day!" },
          { from: 'me', text: 'You too, Alice 😊' },
        ],
      },
    ],
  },
  {
    phone: 1,
    chat_id: '120363041234567890@g.us',
    chat_name: 'Demo Team',
    chat_type: 'group',
    members: [BOB, CARLA, DAN],
    sessions: [
      {
        hoursAgo: 118,
        lines: [
          { from: BOB, text: 'Morning team! Stand-up in 10 minutes' },
          { from: 'me', text: 'On my way' },
          { from: CARLA, text: 'Can someone share the sales numbers from last week?' },
          { from: 'me', text: 'Weekly sales summary', image: jpeg('weekly-sales-summary.jpg', 1600, 900, 212_480) },
          { from: DAN, text: 'Thanks! Revenue up 12% week over week 🎉' },
          { from: CARLA, text: 'Nice work everyone' },
        ],
      },
      {
        hoursAgo: 74,
        lines: [
          { from: BOB, text: 'Reminder: the new pricing goes live on Monday' },
          { from: 'me', text: `@${BOB} do we update the price list on the website too?`, mentions: [BOB] },
          { from: BOB, text: "Yes, I'll take care of it today" },
          { from: DAN, text: 'Photos from the trade fair booth', image: jpeg('IMG-20261118-WA0012.jpg', 1440, 1080, 301_056) },
          { from: CARLA, text: 'Looks great!' },
        ],
      },
      {
        hoursAgo: 30,
        lines: [
          { from: 'me', text: "Who's covering support on Saturday?" },
          { from: DAN, text: 'I can do Saturday morning' },
          { from: CARLA, text: "I'll take the afternoon" },
          { from: 'me', text: 'Thanks both. Updated the rota.' },
          { from: BOB, text: 'Lunch on Friday to celebrate the quarter?' },
          { from: DAN, text: 'Count me in' },
        ],
      },
      {
        hoursAgo: 3,
        lines: [
          { from: 'me', text: 'Booked a table for 6 at 12:30' },
          { from: BOB, text: '🙌' },
          { from: CARLA, text: 'Could we move stand-up to 9:30 tomorrow?' },
          { from: 'me', text: 'Sure, updated the invite' },
          { from: DAN, text: 'Works for me' },
          { from: BOB, text: 'See you all at 9:30 then' },
        ],
      },
    ],
  },
];
