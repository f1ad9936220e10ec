// Tailwind CSS 4 through PostCSS (Next.js picks this file up on its own).
export default { plugins: { "@tailwindcss/postcss": {} } };
