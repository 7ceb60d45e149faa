/**
 * How a person sees an author's key: a fingerprint (SHA-256 of the key, grouped) and four words
 * from the same digest, easier to compare aloud or at a glance. Both come from the key itself,
 * never from the key id a signature names (anyone can pick an id).
 */
import { createHash } from "node:crypto";

/** 256 short, distinct, everyday words: one per byte value. */
const WORDS = (
  "acorn adobe agent alarm album alder amber anchor angle apple apron arch arrow aspen atlas attic " +
  "badge bagel baker bamboo banjo barley basil basin beach beacon bean berry bison blade blanket bloom " +
  "board bonnet border bottle bough bow brass bread brick bridge brook broom bucket bugle button cabin " +
  "cable cactus camel candle canoe canyon cargo carpet castle cedar cellar chalk cherry chess chimney cider " +
  "cinder circle cliff clock cloud clover cobalt cocoa comet copper coral cotton cradle crane crater crayon " +
  "creek cricket crown crystal cup curtain daisy dagger delta desert diamond dingo dolphin domino donkey dragon " +
  "drum dune eagle easel echo eel elbow ember emerald engine falcon feather fern ferry fiddle field " +
  "fig flame flask fleet flint flute forest fossil fountain fox frost galaxy garden garnet gecko geyser " +
  "ginger glacier globe goat gondola grape gravel guitar hammer harbor harp hazel hedge helmet heron hill " +
  "honey hook horizon hornet iceberg igloo indigo iris island ivory jacket jade jasmine jelly jewel jungle " +
  "kayak kettle kiwi koala ladder lagoon lantern lark laurel lemon lilac lily linen lizard llama lobster " +
  "locket lotus lumber magnet mango maple marble meadow melon meteor mint mirror mitten molar moose mosaic " +
  "moth mountain muffin nectar needle nest nickel noodle oak oasis ocean olive onion opal orbit orchid " +
  "otter owl oyster paddle palm panda paper parrot peach pearl pebble pepper piano pillow pine planet " +
  "plum pocket pony poppy prairie prism pumpkin quartz quill rabbit radar raft rain raven reef ribbon " +
  "river robin rocket saddle saffron salmon satin scarf shell silver sloth spruce squid tulip walrus yacht"
).split(" ");

if (WORDS.length !== 256 || new Set(WORDS).size !== 256)
  throw new Error(`the fingerprint word list must hold 256 distinct words`);

function digestOf(key: Buffer): Buffer {
  return createHash("sha256").update("svc author key\u0000").update(key).digest();
}

/**
 * @example
 * keyFingerprint(key) // "3f2a 91c0 7be4 0d55 a1e9 6c02 44f8 b713"
 */
export function keyFingerprint(key: Buffer): string {
  return (digestOf(key).subarray(0, 16).toString("hex").match(/.{4}/g) ?? []).join(" ");
}

/**
 * @example
 * keyWords(key) // "maple comet harbor quill"
 */
export function keyWords(key: Buffer): string {
  return [...digestOf(key).subarray(16, 20)].map((byte) => WORDS[byte]).join(" ");
}
