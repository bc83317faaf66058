import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import svgCaptcha from 'svg-captcha';

/**
 * The sign-in captcha: a bitmap, not vector glyphs. An SVG captcha sends every character as the same outline each time
 * (rotated and scaled), which a program matches against a table of outlines — that read 200 of 200 of our SVG
 * captchas. Here svg-captcha only lays the characters out (its own font, random size, rotation, colour and crossing
 * lines); sharp (libvips/librsvg) rasterises them, the bitmap is warped by two random waves so no glyph keeps its
 * shape, speckled, and sent as PNG. The answer is compared case-insensitively.
 */

export const CAPTCHA_WIDTH = 150;
export const CAPTCHA_HEIGHT = 50;
/** Characters a person tells apart without doubt (no 0/O, 1/I/L, 2/Z, 5/S, 8/B, 9/g, U/V). */
export const CAPTCHA_CHARS = 'ACDEFGHJKMNPQRTWXY34567';
export const CAPTCHA_LENGTH = 5;

export interface RenderedCaptcha {
  text: string;
  png: Buffer;
}

const rnd = (min: number, max: number) => min + (randomInt(0, 1_000_000) / 1_000_000) * (max - min);

export async function renderCaptcha(): Promise<RenderedCaptcha> {
  const c = svgCaptcha.create({
    size: CAPTCHA_LENGTH,
    charPreset: CAPTCHA_CHARS,
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
    fontSize: 54,
    noise: 3,
    color: false,
  });
  const { data, info } = await sharp(Buffer.from(c.data))
    .resize(CAPTCHA_WIDTH, CAPTCHA_HEIGHT)
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const ch = info.channels;
  const out = Buffer.alloc(data.length);
  // two waves: rows shift sideways, columns up and down, with random amplitude, period and phase
  const ax = rnd(1.8, 3);
  const px = rnd(28, 44);
  const fx = rnd(0, Math.PI * 2);
  const ay = rnd(1.8, 3);
  const py = rnd(36, 64);
  const fy = rnd(0, Math.PI * 2);
  const bg = [0xff, 0xff, 0xff];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const sx = x + ax * Math.sin((2 * Math.PI * y) / px + fx);
      const sy = y + ay * Math.sin((2 * Math.PI * x) / py + fy);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const dx = sx - x0;
      const dy = sy - y0;
      const o = (y * w + x) * ch;
      for (let k = 0; k < 3; k++) {
        const at = (xx: number, yy: number) =>
          xx < 0 || yy < 0 || xx >= w || yy >= h ? bg[k]! : data[(yy * w + xx) * ch + k]!;
        const v =
          at(x0, y0) * (1 - dx) * (1 - dy) +
          at(x0 + 1, y0) * dx * (1 - dy) +
          at(x0, y0 + 1) * (1 - dx) * dy +
          at(x0 + 1, y0 + 1) * dx * dy;
        out[o + k] = Math.round(v);
      }
    }
  }
  // speckle: about 4% of the pixels in random mid tones
  const dots = Math.round(w * h * 0.04);
  for (let i = 0; i < dots; i++) {
    const o = (randomInt(0, h) * w + randomInt(0, w)) * ch;
    const v = randomInt(60, 200);
    out[o] = v;
    out[o + 1] = randomInt(60, 200);
    out[o + 2] = v;
  }
  const png = await sharp(out, { raw: { width: w, height: h, channels: ch } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { text: c.text, png };
}
