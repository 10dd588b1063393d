/** Question bank */
export function QuestionsPage() {
  return <h1>Question bank</h1>;
}
