/** A text of at least `min` characters (trimmed), at most `max`. */
export const textRules = (label: string, min: number, max: number, required = label) => [
  { required: true, whitespace: true, message: `请填写${required}` },
  {
    validator: (_: unknown, v: string | undefined) => {
      const n = (v ?? '').trim().length;
      if (n === 0) return Promise.resolve();
      if (n < min) return Promise.reject(new Error(`${label}至少 ${min} 个字`));
      if (n > max) return Promise.reject(new Error(`${label}不超过 ${max} 字`));
      return Promise.resolve();
    },
  },
];
