/** What the learner tells the team in REPORT.md: learned by evidence, guessed, and left for a hand edit. */
export interface Notes {
  learned: string[]
  guessed: string[]
  edit: string[]
}

export function emptyNotes (): Notes {
  return { learned: [], guessed: [], edit: [] }
}
