/** The player is the only thing that contacts the video provider, and only once play is pressed. */
export const embedUrl = (id: string) =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}?autoplay=1`;
