import { useId, useState, type SyntheticEvent } from 'react';
import { toast } from '../lib/client/toast';
import '../styles/islands.css';

/** Blog newsletter box (spec section 5): email required; no call is made, only a thank-you toast. */
export default function NewsletterBox() {
  const id = useId();
  const [email, setEmail] = useState('');

  function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    toast.success('Thank you for subscribing!', { description: "We'll keep you posted on campaign news." });
    setEmail('');
  }

  return (
    <form className="newsletter-form" onSubmit={onSubmit} aria-label="Newsletter sign-up">
      <label htmlFor={`${id}-email`} className="visually-hidden">
        Email address
      </label>
      <input
        id={`${id}-email`}
        type="email"
        name="email"
        required
        autoComplete="email"
        placeholder="Your email address"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button type="submit" className="btn btn--primary">
        Subscribe
      </button>
    </form>
  );
}
